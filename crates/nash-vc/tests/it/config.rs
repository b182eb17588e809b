//! The configuration's variant words.

use nash_vc::{HSearchConfig, OrLimit};

#[test]
fn variant_words_apply_in_order() {
    let c: HSearchConfig = "base,or2,early-stop".parse().unwrap();
    assert_eq!(c.or_limit, OrLimit::AtMost(2));
    assert!(c.early_stop);
    assert!(!c.border_midpoint);
    let d: HSearchConfig = "max-fulls=3 or=unlimited no-border".parse().unwrap();
    assert_eq!(d.max_fulls, Some(3));
    assert_eq!(d.or_limit, OrLimit::Unlimited);
    assert!(!d.border_midpoint);
    let e: HSearchConfig = "border-local=2".parse().unwrap();
    assert_eq!((e.border_local, e.border_midpoint), (Some(2), false));
    assert_eq!(
        "border-local=2,border-local=none".parse::<HSearchConfig>().unwrap().border_local,
        None
    );
}

#[test]
fn display_round_trips() {
    for text in ["default", "base", "fast", "base,or2,area,optimization", "exact", "border-local=1"]
    {
        let c: HSearchConfig = text.parse().unwrap();
        let again: HSearchConfig = c.to_string().parse().unwrap();
        assert_eq!(c, again, "{text} -> {c}");
    }
}

#[test]
fn bad_words_are_named() {
    for bad in ["or=1", "or=x", "max-fulls=0", "frobnicate", "border=1", "border-local=-1"] {
        let err = bad.parse::<HSearchConfig>().unwrap_err();
        assert!(err.to_string().contains(bad), "{err}");
    }
}
