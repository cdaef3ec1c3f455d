# WebSearch flow sizes: the web search workload measured in DCTCP (M.
# Alizadeh et al., "Data Center TCP (DCTCP)", SIGCOMM 2010), as HPCC (Y. Li
# et al., SIGCOMM 2019), ACC (SIGCOMM 2021) and SFC evaluate it.
# Points transcribed from ../shared/specs/hpcc.md, section 5.2 ("CDFs [SIM]"):
# SIZE (bytes, K = 1000) and cumulative percent; linear between points.
0     0
10K   15
20K   20
30K   30
50K   40
80K   53
200K  60
1M    70
2M    80
5M    90
10M   97
30M   100
