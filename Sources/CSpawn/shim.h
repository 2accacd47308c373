// glibc's posix_spawn extensions (2.29 and 2.34). spawn.h declares them only under
// _GNU_SOURCE, which Swift's Glibc module is built without; these are the same prototypes.
#include <spawn.h>

extern int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions,
                                                const char *__restrict path);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
