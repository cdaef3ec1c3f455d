# PCN's W1 (web server) flow sizes: Table 1 of W. Cheng et al., "Re-
# architecting Congestion Management in Lossless Ethernet" (PCN), NSDI 2020,
# from Facebook's measurements (A. Roy et al., SIGCOMM 2015). Transcribed
# from ../shared/specs/pcn.md, section 5.1: share of flows per size class,
# S 0-10KB 80.14 %, M 10-100KB 10.32 %, L 100KB-1MB 9.12 %, XL > 1MB 0.41 %
# (bytes: 3.08, 5.89, 83.8, 7.04 %).
#
# Our readings, not the paper's: sizes are uniform within a class (linear
# between the class bounds); the rows add up to 99.99 %, so XL takes the
# remaining 0.42 %; the table gives no largest size, so XL ends at 1.007MB,
# where XL carries 7.04/83.8 of L's bytes as in the table (the other byte
# shares then differ from the table's).
0       0
10K     80.14
100K    90.46
1M      99.58
1.007MB 100
