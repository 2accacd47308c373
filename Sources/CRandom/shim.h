// getrandom(2): Swift's Glibc module does not include sys/random.h.
#include <sys/random.h>
