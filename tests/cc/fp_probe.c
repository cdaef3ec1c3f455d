float fp_probe_f(float a, float b);
float fp_probe_f(float a, float b) { return a * b; }
double fp_probe_d(double a, long b);
double fp_probe_d(double a, long b) { return a / (double)b; }
