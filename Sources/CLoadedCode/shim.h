// The page tables of the process's read-only load segments (its code and that of every shared
// library), emptied with madvise(MADV_DONTNEED): a long-lived process keeps only the code it
// runs afterwards mapped. The pages stay in the page cache, so code that runs again maps them
// back with a minor fault and no read. link.h declares dl_iterate_phdr and its struct only under
// _GNU_SOURCE, which Swift's Glibc module is built without; these are glibc's, under our names.
#ifndef PHOTOD_CLOADEDCODE_SHIM_H
#define PHOTOD_CLOADEDCODE_SHIM_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/// The leading fields of glibc's struct dl_phdr_info (the loader passes the size it has).
struct photod_dl_phdr_info {
    ElfW(Addr) dlpi_addr;
    const char *dlpi_name;
    const ElfW(Phdr) *dlpi_phdr;
    ElfW(Half) dlpi_phnum;
};
extern int photod_dl_iterate_phdr(int (*callback)(struct photod_dl_phdr_info *, size_t, void *), void *data)
    __asm__("dl_iterate_phdr");

struct photod_code_pages {
    uintptr_t page;
    size_t released;
};

/// True when the object's code was patched at load (text relocations): those pages are the
/// process's own copies, and dropping them would undo the patches.
static inline int photod_has_text_relocations(const struct photod_dl_phdr_info *info) {
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
             entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

static inline int photod_release_object_code(struct photod_dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct photod_code_pages *total = data;
    if (photod_has_text_relocations(info)) return 0;
    for (int index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        // A segment without PF_W is never written (RELRO lies in writable segments, written by
        // the loader before it is made read-only), so every page is the file's own.
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W)) continue;
        uintptr_t start = info->dlpi_addr + header->p_vaddr, end = start + header->p_filesz;
        // Whole pages inside the segment only: a page shared with a neighbour is left alone.
        start = (start + total->page - 1) & ~(total->page - 1);
        end &= ~(total->page - 1);
        if (end > start && madvise((void *)start, end - start, MADV_DONTNEED) == 0) total->released += end - start;
    }
    return 0;
}

/// Empties the page tables of every loaded object's read-only segments; returns the bytes of
/// address space released (not all of it was mapped).
static inline size_t photod_release_code_pages(void) {
    long page = sysconf(_SC_PAGESIZE);
    struct photod_code_pages total = {page > 0 ? (uintptr_t)page : 4096, 0};
    photod_dl_iterate_phdr(photod_release_object_code, &total);
    return total.released;
}

#endif
