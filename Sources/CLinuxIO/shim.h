// epoll and accept4, for the varlink server's relay thread. Swift's Glibc module does not
// include sys/epoll.h, and sys/socket.h declares accept4 only under _GNU_SOURCE, which the
// Glibc module is built without; this is glibc's prototype.
#include <sys/epoll.h>
#include <sys/socket.h>

extern int accept4(int fd, struct sockaddr *addr, socklen_t *addr_len, int flags);
