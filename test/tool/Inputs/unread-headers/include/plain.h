// No legacy names: read by no unit, and reported by nothing.
inline int twice(int x) { return 2 * x; }
