// Wrappers for macros and variadic calls Swift cannot reach: SCMP_ACT_ERRNO, prctl, close_range, Landlock.
#ifndef PHOTOD_CSECCOMP_SHIM_H
#define PHOTOD_CSECCOMP_SHIM_H

#include <seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/// CLONE_THREAD and AT_EMPTY_PATH, which the C headers show only under _GNU_SOURCE.
static const unsigned long photod_clone_thread = 0x00010000;
static const unsigned long photod_at_empty_path = 0x1000;

static inline uint32_t photod_scmp_act_errno(int code) { return SCMP_ACT_ERRNO(code); }

static inline int photod_prctl(int option, unsigned long argument) { return prctl(option, argument, 0, 0, 0); }

/// close_range(first, ~0U, 0); glibc 2.36 has no wrapper visible to Swift.
static inline long photod_close_from(unsigned int first) { return syscall(SYS_close_range, first, ~0U, 0); }

/// ioprio_set(IOPRIO_WHO_PROCESS, self, IOPRIO_CLASS_IDLE): disk reads only when nobody else wants the disk.
static inline long photod_ioprio_idle(void) { return syscall(SYS_ioprio_set, 1, 0, 3 << 13); }

/// sched_getaffinity of this process into a scratch mask: 0, or -1 with errno (the sandbox probe).
static inline long photod_sched_getaffinity_probe(void) {
    unsigned long mask[16];
    return syscall(SYS_sched_getaffinity, 0, sizeof mask, mask) < 0 ? -1 : 0;
}

/// The Landlock ruleset attribute as of ABI 6, declared here because the distribution's
/// linux/landlock.h may predate the network and scope fields; the kernel reads only `size` bytes.
struct photod_landlock_ruleset_attr {
    unsigned long long handled_access_fs;
    unsigned long long handled_access_net;
    unsigned long long scoped;
};

/// The Landlock ABI version (1, 2, ...), or -1 with errno (ENOSYS, EOPNOTSUPP when disabled at boot).
static inline long photod_landlock_abi(void) { return syscall(444 /* landlock_create_ruleset */, NULL, 0, 1UL); }

/// Puts this process (every thread must call it or be created after) in a Landlock domain that
/// handles every file-system right the kernel's `abi` knows and grants none, so no path can be
/// opened, made or executed; from ABI 4 no TCP bind or connect, from ABI 6 no signal or abstract
/// socket outside the domain. Needs no_new_privs. 0, or -1 with errno.
static inline int photod_landlock_deny_all(long abi) {
    struct photod_landlock_ruleset_attr attr = {0};
    unsigned long size = sizeof(unsigned long long);
    // ABI 1: 13 rights; 2 adds REFER, 3 TRUNCATE, 5 IOCTL_DEV.
    attr.handled_access_fs = (1ULL << 13) - 1;
    if (abi >= 2) attr.handled_access_fs |= 1ULL << 13;
    if (abi >= 3) attr.handled_access_fs |= 1ULL << 14;
    if (abi >= 5) attr.handled_access_fs |= 1ULL << 15;
    if (abi >= 4) { attr.handled_access_net = 3; size = 2 * sizeof(unsigned long long); }
    if (abi >= 6) { attr.scoped = 3; size = sizeof(attr); }
    long ruleset = syscall(444 /* landlock_create_ruleset */, &attr, size, 0UL);
    if (ruleset < 0) return -1;
    long result = syscall(446 /* landlock_restrict_self */, ruleset, 0UL);
    int saved = errno;
    close((int)ruleset);
    errno = saved;
    return result == 0 ? 0 : -1;
}

#endif
