/* SPDX-License-Identifier: MIT */
/*
 * footprint.c: section 5: the library's footprint: file sizes, NEEDED,
 * and dlopen + create + destroy + dlclose against dlopen of libsodium
 * (dlopen_probe.c, run as a child because this process has both
 * libraries loaded).
 */
#include "bench.h"

footprint_figures F;

static long file_size(const char *path)
{
    struct stat st;
    return path != NULL && stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* DT_NEEDED entries of an ELF64 file, through its section headers. */
static void read_needed(const char *path)
{
    FILE *f = fopen(path, "rb");
    Elf64_Ehdr eh;
    Elf64_Shdr *sh = NULL;
    char *strtab = NULL;
    int i;
    F.n_needed = 0;
    if (f == NULL || fread(&eh, sizeof eh, 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64) {
        goto out;
    }
    sh = calloc(eh.e_shnum, sizeof *sh);
    if (sh == NULL || fseek(f, (long)eh.e_shoff, SEEK_SET) != 0 ||
        fread(sh, sizeof *sh, eh.e_shnum, f) != eh.e_shnum) {
        goto out;
    }
    for (i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr *dyn = &sh[i], *str;
        size_t k, count;
        if (dyn->sh_type != SHT_DYNAMIC || dyn->sh_link >= eh.e_shnum) {
            continue;
        }
        str = &sh[dyn->sh_link];
        strtab = malloc(str->sh_size + 1);
        if (strtab == NULL || fseek(f, (long)str->sh_offset, SEEK_SET) != 0 ||
            fread(strtab, 1, str->sh_size, f) != str->sh_size) {
            goto out;
        }
        strtab[str->sh_size] = '\0';
        count = dyn->sh_size / sizeof(Elf64_Dyn);
        for (k = 0; k < count && F.n_needed < 8; k++) {
            Elf64_Dyn d;
            if (fseek(f, (long)(dyn->sh_offset + k * sizeof d), SEEK_SET) != 0 ||
                fread(&d, sizeof d, 1, f) != 1) {
                goto out;
            }
            if (d.d_tag == DT_NEEDED && d.d_un.d_val < str->sh_size) {
                snprintf(F.needed[F.n_needed++], sizeof F.needed[0], "%s", strtab + d.d_un.d_val);
            }
        }
        break;
    }
out:
    free(strtab);
    free(sh);
    if (f != NULL) {
        fclose(f);
    }
}

static void probe_line(const char *key, const char *value)
{
    double v = atof(value);
    if (strcmp(key, "unloaded") == 0) {
        F.unloaded = (int)v;
    } else if (strcmp(key, "rounds") == 0) {
        F.rounds = (int)v;
    } else if (strcmp(key, "sodium_ns") == 0) {
        F.sodium_us = v / 1e3;
    } else if (strcmp(key, "sodium_init_ns") == 0) {
        F.sodium_init_us = v / 1e3;
    } else if (strcmp(key, "idlelock_ns") == 0) {
        F.idlelock_us = v / 1e3;
    } else if (strcmp(key, "first_sodium_ns") == 0) {
        F.first_sodium_us = v / 1e3;
    } else if (strcmp(key, "first_idlelock_ns") == 0) {
        F.first_idlelock_us = v / 1e3;
    }
}

void run_footprint(void)
{
    int i;
    char cmd[2048];
    F.size = file_size(opt.lib);
    F.stripped_size = file_size(opt.stripped);
    if (opt.lib != NULL) {
        read_needed(opt.lib);
    }
    snprintf(F.sodium, sizeof F.sodium, "libsodium.so.23");
    for (i = 0; i < F.n_needed; i++) {
        if (strncmp(F.needed[i], "libsodium", 9) == 0) {
            snprintf(F.sodium, sizeof F.sodium, "%s", F.needed[i]);
        }
    }
    if (opt.probe != NULL && opt.lib != NULL) {
        int rc;
        snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' %d", opt.probe, opt.lib, F.sodium, opt.dl_rounds);
        rc = run_child(cmd, probe_line);
        if (rc != 0) {
            fprintf(stderr, "idlelock-bench: %s failed (status %d)\n", cmd, rc);
            child_failures++;
        } else {
            F.probe_ok = 1;
        }
    }
}
