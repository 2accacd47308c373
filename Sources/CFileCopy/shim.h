// memfd_create(2), copy_file_range(2) and pipe2(2): glibc declares them only under _GNU_SOURCE,
// which Swift's Glibc module is built without; these are the same prototypes. sendfile(2) has
// its own header, which Swift's Glibc module does not include.
#include <sys/types.h>
#include <sys/sendfile.h>
// flistxattr, fgetxattr and fsetxattr, for a file rewritten under a temporary name to keep its
// original's extended attributes: sys/xattr.h is not in Swift's Glibc module either.
#include <sys/xattr.h>

extern int memfd_create(const char *name, unsigned int flags);
extern ssize_t copy_file_range(int infd, __off64_t *pinoff, int outfd, __off64_t *poutoff,
                               size_t length, unsigned int flags);
extern int pipe2(int pipedes[2], int flags);

// linux/memfd.h and linux/fcntl.h, which glibc's headers expose only under _GNU_SOURCE.
#define PHOTOD_MFD_CLOEXEC 0x0001U
#define PHOTOD_MFD_ALLOW_SEALING 0x0002U
#define PHOTOD_F_ADD_SEALS 1033
#define PHOTOD_F_GET_SEALS 1034
#define PHOTOD_F_SEAL_SEAL 0x0001
#define PHOTOD_F_SEAL_SHRINK 0x0002
#define PHOTOD_F_SEAL_GROW 0x0004
#define PHOTOD_F_SEAL_WRITE 0x0008
