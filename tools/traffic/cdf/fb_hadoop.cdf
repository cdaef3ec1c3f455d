# FB_Hadoop flow sizes: the Hadoop cluster of A. Roy et al., "Inside the
# Social Network's (Datacenter) Network", SIGCOMM 2015, as HPCC (SIGCOMM
# 2019), ACC (SIGCOMM 2021) and SFC evaluate it.
# Points transcribed from ../shared/specs/hpcc.md, section 5.2 ("CDFs [SIM]"):
# SIZE (bytes, K = 1000) and cumulative percent; linear between points.
0     0
100   1
200   2
300   5
350   15
400   20
500   30
600   40
700   50
1000  60
2000  67
7000  70
30K   72
50K   82
80K   87
120K  90
300K  95
1M    97.5
2M    99
10M   100
