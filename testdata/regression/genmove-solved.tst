#-----------------------------------------------------------------------------
# reg_genmove on solved positions: the move genmove would play must be one of the
# position's winning moves. The positions are every 6x6 and 7x7 line of
# testdata/solved.tsv whose side to move wins with at most two winning moves, and the
# first twenty such 5x5 lines; the expected sets are that file's winning sets.
#-----------------------------------------------------------------------------

param_player solve_time 60

boardsize 5 5
clear_board
play b a2
1 reg_genmove white
#? [c3]
1001 play white c3
#? []

boardsize 5 5
clear_board
play b a3
2 reg_genmove white
#? [b4]

boardsize 5 5
clear_board
play b e3
3 reg_genmove white
#? [d2]

boardsize 5 5
clear_board
play b e4
4 reg_genmove white
#? [c3]

boardsize 5 5
clear_board
play b a1
play w e1
5 reg_genmove black
#? [d2|b4]

boardsize 5 5
clear_board
play b a1
play w c2
6 reg_genmove black
#? [d2|b4]

boardsize 5 5
clear_board
play b a1
play w b3
7 reg_genmove black
#? [c3]

boardsize 5 5
clear_board
play b a1
play w d3
8 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b a1
play w c4
9 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b a1
play w d4
10 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b a1
play w b5
11 reg_genmove black
#? [b4|d4]

boardsize 5 5
clear_board
play b a1
play w c5
12 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b a1
play w d5
13 reg_genmove black
#? [c3|b4]

boardsize 5 5
clear_board
play b b1
play w e1
14 reg_genmove black
#? [d2|b4]

boardsize 5 5
clear_board
play b b1
play w c2
15 reg_genmove black
#? [d2|b4]

boardsize 5 5
clear_board
play b b1
play w b3
16 reg_genmove black
#? [c3]

boardsize 5 5
clear_board
play b b1
play w d3
17 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b b1
play w c4
18 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b b1
play w d4
19 reg_genmove black
#? [b4]

boardsize 5 5
clear_board
play b b1
play w b5
20 reg_genmove black
#? [b4|d4]

boardsize 6 6
clear_board
play b a2
21 reg_genmove white
#? [d3]

boardsize 6 6
clear_board
play b f5
22 reg_genmove white
#? [c4]

boardsize 7 7
clear_board
play b a2
23 reg_genmove white
#? [e3|d4]

boardsize 7 7
clear_board
play b b2
24 reg_genmove white
#? [e3]

boardsize 7 7
clear_board
play b d2
25 reg_genmove white
#? [c5]

boardsize 7 7
clear_board
play b a3
26 reg_genmove white
#? [d4]

boardsize 7 7
clear_board
play b g3
27 reg_genmove white
#? [f2]

boardsize 7 7
clear_board
play b a5
28 reg_genmove white
#? [b6]

boardsize 7 7
clear_board
play b g5
29 reg_genmove white
#? [d4]

boardsize 7 7
clear_board
play b d6
30 reg_genmove white
#? [e3]

boardsize 7 7
clear_board
play b f6
31 reg_genmove white
#? [c5]

boardsize 7 7
clear_board
play b g6
32 reg_genmove white
#? [d4|c5]

boardsize 6 6
clear_board
play b b1
play w a2
play b e2
33 reg_genmove white
#? [d3]

boardsize 6 6
clear_board
play b e4
play w e5
play b e3
play w c3
play b b1
play w e1
34 reg_genmove black
#? [d3]

boardsize 6 6
clear_board
play b e1
play w b6
play b a4
play w a3
35 reg_genmove black
#? [e4|a6]

boardsize 6 6
clear_board
play b a2
play w d5
36 reg_genmove black
#? [e4|b5]

boardsize 6 6
clear_board
play b e5
play w d5
play b c1
play w a2
play b b2
37 reg_genmove white
#? [d3|c4]

boardsize 6 6
clear_board
play b f6
play w b3
play b c2
play w c3
play b f3
play w f2
38 reg_genmove black
#? [d3]

boardsize 6 6
clear_board
play b d6
play w c6
play b f4
play w b3
play b b4
39 reg_genmove white
#? [e2|d3]

boardsize 6 6
clear_board
play b c6
play w b5
play b d1
play w f5
play b f1
play w e4
40 reg_genmove black
#? [d4]

boardsize 6 6
clear_board
play b a4
play w c3
play b b4
play w f3
play b d5
41 reg_genmove white
#? [c4]

boardsize 6 6
clear_board
play b f4
play w d3
42 reg_genmove black
#? [c3]

boardsize 6 6
clear_board
play b d2
play w e1
play b d3
play w a6
play b f4
43 reg_genmove white
#? [e3]

boardsize 6 6
clear_board
play b c6
play w d2
play b d4
44 reg_genmove white
#? [d3]

boardsize 6 6
clear_board
play b e3
play w c2
play b f5
45 reg_genmove white
#? [e2|e4]

boardsize 6 6
clear_board
play b a3
play w d2
play b d6
play w e2
play b a4
play w b6
46 reg_genmove black
#? [b5]
