/*
 * tamper_store.c: the store file changed between calls: deleted,
 * truncated, a bit flipped, saved and rolled back, a stray temporary.
 */
#include <fcntl.h>

#include "fuzz_api.h"

void tamper_store(reader *r)
{
    uint8_t sel = rd_u8(r) % 6;
    int fd;
    struct stat st;
    model_valid = 0; /* the model no longer predicts the secrets */
    switch (sel) {
    case 0: unlink(store_path); break;
    case 1:
        if (stat(store_path, &st) == 0) (void)truncate(store_path, (off_t)(rd_u16(r) % (st.st_size + 1)));
        break;
    case 2:
        fd = open(store_path, O_RDWR);
        if (fd >= 0) {
            if (fstat(fd, &st) == 0 && st.st_size > 0) {
                off_t off = (off_t)(rd_u32(r) % (uint32_t)st.st_size);
                uint8_t b = 0;
                if (pread(fd, &b, 1, off) == 1) {
                    b ^= (uint8_t)(1u << (rd_u8(r) % 8));
                    (void)pwrite(fd, &b, 1, off);
                }
            }
            close(fd);
        }
        break;
    case 3: /* remember the file as it is now */
        fd = open(store_path, O_RDONLY);
        saved_store_len = -1;
        if (fd >= 0) {
            saved_store_len = read(fd, saved_store, sizeof saved_store);
            close(fd);
        }
        break;
    case 4: /* roll back to the remembered file */
        if (saved_store_len >= 0) {
            fd = open(store_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd >= 0) {
                (void)write(fd, saved_store, (size_t)saved_store_len);
                close(fd);
            }
        }
        break;
    default: { /* a stray temporary file beside it */
        char tmp[300];
        snprintf(tmp, sizeof tmp, "%s.tmp.%06u", store_path, (unsigned)(rd_u16(r) % 1000000));
        fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) close(fd);
        break;
    }
    }
}
