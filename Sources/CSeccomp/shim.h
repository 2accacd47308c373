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

#endif
