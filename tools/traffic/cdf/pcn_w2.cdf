# PCN's W2 (Hadoop) flow sizes: Table 1 of W. Cheng et al., "Re-architecting
# Congestion Management in Lossless Ethernet" (PCN), NSDI 2020, from
# Facebook's measurements (A. Roy et al., SIGCOMM 2015). Transcribed from
# ../shared/specs/pcn.md, section 5.1: share of flows per size class,
# S 0-10KB 70.79 %, M 10-100KB 16.59 %, L 100KB-1MB 3.52 %, XL > 1MB 9.1 %
# (bytes: 0.22, 1.56, 1.53, 96.7 %).
#
# Our readings, not the paper's: sizes are uniform within a class (linear
# between the class bounds); the table gives no largest size, so XL ends at
# 25.9MB, where XL carries 96.7/1.53 of L's bytes as in the table (the
# other byte shares then differ from the table's).
0      0
10K    70.79
100K   87.38
1M     90.90
25.9MB 100
