//! The module's requests, answered natively through `nash_web::call`.

use serde_json::{json, Value};

/// The answer of one request: `Ok(value)` or `Err(message)`.
fn ask(request: Value) -> Result<Value, String> {
    let answer: Value = serde_json::from_str(&nash_web::call(&request.to_string())).unwrap();
    match (answer.get("ok"), answer.get("error")) {
        (Some(ok), None) => Ok(ok.clone()),
        (None, Some(Value::String(e))) => Err(e.clone()),
        _ => panic!("an answer is ok or error: {answer}"),
    }
}

fn game(n: usize, moves: &[(&str, &str)]) -> Value {
    json!({ "cols": n, "rows": n, "moves": moves })
}

fn cells(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_owned()).collect()
}

#[test]
fn every_command_is_answered_by_name() {
    let names: Vec<_> = nash_web::commands().iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["show", "play", "edit", "solve", "winning", "analyse", "sgf-export", "sgf-import"]
    );
    let e = ask(json!({ "cmd": "solv" })).unwrap_err();
    assert!(e.starts_with("unknown cmd \"solv\": expected one of show, play"), "{e}");
}

#[test]
fn bad_requests_get_one_line_naming_the_input() {
    let cases = [
        (json!([1]), "the request is not a JSON object"),
        (json!({ "game": {} }), "the request has no cmd"),
        (json!({ "cmd": "show", "game": game(0, &[]) }), "show: "),
        (json!({ "cmd": "play", "game": game(5, &[]), "move": "f1" }), "f1"),
        (json!({ "cmd": "play", "game": game(5, &[("b", "c3")]), "move": "c3" }), "c3"),
        (json!({ "cmd": "play", "game": game(5, &[]), "move": "zz" }), "zz"),
        (json!({ "cmd": "show", "game": game(5, &[("x", "c3")]) }), "move 1: invalid colour \"x\""),
        (json!({ "cmd": "solve", "game": game(5, &[]), "tt_mib": 0 }), "tt_mib 0"),
        (json!({ "cmd": "solve", "game": game(5, &[]), "time": -1.0 }), "time -1"),
        (json!({ "cmd": "solve", "game": game(5, &[]), "depth": 3 }), "unknown field `depth`"),
        (json!({ "cmd": "analyse", "game": game(5, &[]), "player": "nobody" }), "nobody"),
        (json!({ "cmd": "sgf-import", "sgf": "(;FF[4]GM[11]SZ[5];B[k9])" }), "k9"),
        (json!({ "cmd": "edit", "game": game(5, &[]), "cell": "q9", "stone": "b" }), "q9"),
    ];
    for (request, expected) in cases {
        let e = ask(request.clone()).unwrap_err();
        assert!(e.contains(expected), "{request}: {e:?} should name {expected:?}");
        assert!(!e.contains('\n'), "{request}: one line: {e:?}");
    }
    assert!(nash_web::call("{").contains("the request is not JSON"));
}

#[test]
fn play_adds_the_move_of_the_side_to_move() {
    let a =
        ask(json!({ "cmd": "play", "game": game(3, &[("black", "b2")]), "move": "a1" })).unwrap();
    assert_eq!(a["game"]["moves"], json!([["black", "b2"], ["white", "a1"]]));
    assert_eq!(a["board"]["black"], json!(["b2"]));
    assert_eq!(a["board"]["white"], json!(["a1"]));
    assert_eq!(a["board"]["to_move"], "black");
    assert_eq!(a["board"]["last"], "a1");
    let won =
        ask(json!({ "cmd": "show", "game": game(2, &[("b", "a1"), ("w", "b1"), ("b", "a2")]) }));
    assert_eq!(won.unwrap()["winner"], "black");
}

#[test]
fn edit_sets_up_stones_and_the_side_to_move() {
    let g = game(4, &[("black", "b2"), ("white", "c3")]);
    let a = ask(json!({ "cmd": "edit", "game": g, "cell": "b2", "stone": "white" })).unwrap();
    assert_eq!(a["game"]["moves"], json!([]));
    assert_eq!(a["board"]["white"], json!(["b2", "c3"]));
    assert_eq!(a["board"]["to_move"], "black");
    let a = ask(json!({ "cmd": "edit", "game": a["game"], "cell": "c3", "to_move": "w" })).unwrap();
    assert_eq!(a["board"]["white"], json!(["b2"]));
    assert_eq!(a["board"]["to_move"], "white");
}

#[test]
fn solve_and_winning_agree_on_a_small_board() {
    // 4x4 after b2 c2 b3: the winning moves as `nash winning` gives them.
    let g = game(4, &[("b", "b2"), ("w", "c2"), ("b", "b3")]);
    let s = ask(json!({ "cmd": "solve", "game": g })).unwrap();
    let w = ask(json!({ "cmd": "winning", "game": g })).unwrap();
    assert_eq!(s["to_move"], "white");
    assert_eq!(w["exact"], true);
    let winning = cells(&w["winning"]);
    match s["result"].as_str().unwrap() {
        "win" => {
            let mv = s["winning_move"].as_str().unwrap().to_owned();
            assert!(winning.contains(&mv), "{mv} in {winning:?}");
            assert!(cells(&s["carrier"]).contains(&mv));
            assert_eq!(s["pv"][0], mv);
        }
        "loss" => assert!(winning.is_empty()),
        r => panic!("4x4 is solved: {r}"),
    }
    assert_eq!(s["winner"], if winning.is_empty() { "black" } else { "white" });
}

#[test]
fn the_empty_3x3_board_is_won_as_nash_winning_says() {
    // `nash winning --size 3`: "winning moves (5): c1 a2 b2 c2 a3".
    let w = ask(json!({ "cmd": "winning", "game": game(3, &[]) })).unwrap();
    assert_eq!(cells(&w["winning"]), ["c1", "a2", "b2", "c2", "a3"]);
}

#[test]
fn analyse_answers_a_move_its_line_and_scores() {
    let a =
        ask(json!({ "cmd": "analyse", "game": game(5, &[("b", "c3")]), "playouts": 100 })).unwrap();
    let mv = a["move"].as_str().unwrap();
    assert_eq!(a["pv"][0], mv);
    assert!(!a["scores"].as_array().unwrap().is_empty());
    assert!(a["player"].as_str().unwrap().starts_with("best"));
    let over =
        ask(json!({ "cmd": "analyse", "game": game(2, &[("b", "a1"), ("w", "b1"), ("b", "a2")]) }));
    assert_eq!(over.unwrap_err(), "analyse: the game is over: black has won");
}

#[test]
fn sgf_goes_out_and_back() {
    let g = json!({ "cols": 5, "rows": 5, "setup": [["black", "c3"]], "to_move": "white",
                    "moves": [["white", "b4"], ["black", "d2"]] });
    let sgf =
        ask(json!({ "cmd": "sgf-export", "game": g })).unwrap()["sgf"].as_str().unwrap().to_owned();
    let back = ask(json!({ "cmd": "sgf-import", "sgf": sgf })).unwrap();
    assert_eq!(back["game"], g);
    // HexGui's swap: the stone stays and White moves again.
    let hg = ask(
        json!({ "cmd": "sgf-import", "sgf": "(;FF[4]GM[11]SZ[5];B[b2];W[swap-pieces];W[c3])" }),
    );
    let board = &hg.unwrap()["board"];
    assert_eq!(board["black"], json!(["b2"]));
    assert_eq!(board["white"], json!(["c3"]));
}
