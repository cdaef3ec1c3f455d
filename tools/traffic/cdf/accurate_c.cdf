# ACCurate's experiment C (datacenter-like workload) in "Optimizing Network
# Congestion Control for High-Performance Remote Direct Memory Access
# Transfers": 80 % of flows are critical flows of 20 KB, 20 % bulk flows of
# 1 MB. From ../shared/specs/accurate.md, section 5.4. A repeated size is a
# step: each size carries its own share.
20K 80
1M  80
1M  100
