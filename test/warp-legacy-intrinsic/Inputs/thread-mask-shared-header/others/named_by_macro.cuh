// Names groupSum in a macro, which the edits would miss.
#define SUM_OF_EIGHT(v) groupSum(v)
