//! A player's state for the board it plays on, whatever its bitboard type: positions come as
//! `AnyPosition`, while searchers and evaluators are generic over the bitboard.

use std::any::Any;

/// Holds one value of any type (a `Searcher<B>`, an `Evaluator<B>`), rebuilt when a caller
/// asks for another type or finds it stale.
#[derive(Debug, Default)]
pub(crate) struct PerBoard(Option<Box<dyn Any + Send>>);

impl PerBoard {
    /// The held `T` if it is one and `current` accepts it, otherwise a new one from `fresh`.
    pub(crate) fn get<T: Any + Send>(
        &mut self,
        current: impl Fn(&T) -> bool,
        fresh: impl FnOnce() -> T,
    ) -> &mut T {
        let keep = self.0.as_ref().and_then(|s| s.downcast_ref::<T>()).is_some_and(current);
        if !keep {
            self.0 = Some(Box::new(fresh()));
        }
        self.0
            .as_mut()
            .and_then(|s| s.downcast_mut::<T>())
            .expect("the state was just built with this type")
    }

    /// Drops the state (a new game starts from nothing).
    pub(crate) fn clear(&mut self) {
        self.0 = None;
    }
}
