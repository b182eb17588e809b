use nash_board::{AnyPosition, Cell, Move};
use nash_play::{build, MoveBudget};

fn game(a: &str, b: &str, n: usize, opening: Cell) -> usize {
    let mut specs = [build(a).unwrap(), build(b).unwrap()];
    let mut pos = AnyPosition::new(n, n).unwrap();
    let AnyPosition::Small(p) = &mut pos else { panic!() };
    p.play(opening).unwrap();
    let mut turn = 1;
    loop {
        let AnyPosition::Small(p) = &pos else { panic!() };
        if std::env::var("SHOW").is_ok() && turn % 2 == 1 {
            eprintln!("{p}");
        }
        if let Some(w) = p.winner() {
            // player 0 played Black (opening) ; returns index of the winner
            return if w == nash_board::Color::Black { 0 } else { 1 };
        }
        let c = specs[turn % 2]
            .choose(&pos, &MoveBudget { nodes: Some(100_000), ..MoveBudget::default() });
        let AnyPosition::Small(p) = &mut pos else { panic!() };
        match c.mv {
            Move::Cell(cell) => p.play(cell).unwrap(),
            m => panic!("{m:?}"),
        }
        turn += 1;
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args[1].parse().unwrap();
    let a = &args[2];
    let b = &args[3];
    let mut wins = 0;
    let mut games = 0;
    for c in 0..n as u8 {
        for r in 0..n as u8 {
            if (c as usize + r as usize) % 2 != 0 {
                continue;
            }
            let cell = Cell::at(c, r);
            // a plays black then white
            if game(a, b, n, cell) == 0 {
                wins += 1;
            }
            if game(b, a, n, cell) == 1 {
                wins += 1;
            }
            games += 2;
        }
    }
    println!("{a} vs {b} on {n}x{n}: {wins}/{games}");
}
