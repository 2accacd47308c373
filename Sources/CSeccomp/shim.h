// Wrappers for macros and variadic calls Swift cannot reach: SCMP_ACT_ERRNO, prctl, close_range.
#ifndef PHOTOD_CSECCOMP_SHIM_H
#define PHOTOD_CSECCOMP_SHIM_H

#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline uint32_t photod_scmp_act_errno(int code) { return SCMP_ACT_ERRNO(code); }

static inline int photod_prctl(int option, unsigned long argument) { return prctl(option, argument, 0, 0, 0); }

/// close_range(first, ~0U, 0); glibc 2.36 has no wrapper visible to Swift.
static inline long photod_close_from(unsigned int first) { return syscall(SYS_close_range, first, ~0U, 0); }

/// ioprio_set(IOPRIO_WHO_PROCESS, self, IOPRIO_CLASS_IDLE): disk reads only when nobody else wants the disk.
static inline long photod_ioprio_idle(void) { return syscall(SYS_ioprio_set, 1, 0, 3 << 13); }

#endif
