//! Every shipped edge template and its mirror image hold by the solver (which proves them
//! without templates), and no cell of a carrier can go (checked on a sample).

use nash_search::{edge_template_holds, template_solver};
use nash_vc::templates::{edge_templates, EdgeTemplate};

#[test]
fn every_shipped_edge_template_holds() {
    let cfg = template_solver();
    for t in edge_templates() {
        assert_eq!(edge_template_holds(t, &cfg), Ok(true), "{}", t.to_line());
    }
}

#[test]
fn carriers_are_minimal() {
    let cfg = template_solver();
    for t in edge_templates().iter().step_by(16) {
        for i in 0..t.carrier.len() {
            let mut less = t.clone();
            less.carrier.remove(i);
            assert_eq!(
                edge_template_holds(&less, &cfg),
                Ok(false),
                "{} without {:?}",
                t.to_line(),
                t.carrier[i]
            );
        }
    }
}

#[test]
fn a_template_that_is_false_is_refuted() {
    // The fourth-row pair without the first-row cells: no connection.
    let t = EdgeTemplate::parse("4 h -1,0 c 0,-2 1,-2 2,-2 -1,-1 0,-1 1,-1").unwrap();
    assert_eq!(edge_template_holds(&t, &template_solver()), Ok(false));
    let off = EdgeTemplate::parse("4 h -1,0 c 12,-3").unwrap();
    assert!(edge_template_holds(&off, &template_solver()).is_err());
}
