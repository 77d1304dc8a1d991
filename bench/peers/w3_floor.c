// W3's floor: what hand-written C takes for `a*2.0 + b*3.0 - 1.0` saved to a new file
// (50M float64), with two threads, the way marsc does it and the alternatives, next to
// the read bandwidth measured the way peers.py measures it. See README.md ("W3's bytes").
//
//   gcc -O2 -march=native -o /tmp/w3_floor bench/peers/w3_floor.c -lpthread
//   /tmp/w3_floor /mnt/hugeshm 15     # directory for the inputs and output; rounds
//
// Each round prints, in seconds and as W3's share of that round's read bandwidth:
// populating the output file's pages alone (allocation + zeroing), then the whole W3
// into a shared mapping of the file (fallocate + MADV_POPULATE_WRITE per thread, as
// marsc) with plain stores and with non-temporal stores, and with `pwrite` of 2 MiB
// blocks (no zeroing of whole pages, but tmpfs serialises writers on the inode lock).
// The inputs are made once, mapped with MAP_POPULATE; the files are removed at the end.
#define _GNU_SOURCE
#include <emmintrin.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N 50000000UL
#define BYTES (N * 8)
#define POPULATE_WRITE 23 /* MADV_POPULATE_WRITE, Linux 5.14 */

static const char *dir;
static double *A, *B, *ANON, *OUT;
static int mode, out_fd;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct { size_t lo, hi; } range_t;

static void *sum_half(void *arg) {
    range_t *r = arg;
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (size_t i = r->lo; i < r->hi; i += 4) {
        s0 += ANON[i]; s1 += ANON[i + 1]; s2 += ANON[i + 2]; s3 += ANON[i + 3];
    }
    volatile double sink = s0 + s1 + s2 + s3;
    (void)sink;
    return 0;
}

static void *w3_half(void *arg) {
    range_t *r = arg;
    size_t lo = r->lo, hi = r->hi;
    if (mode == 3) {
        size_t block = (2 << 20) / 8;
        double *buf = aligned_alloc(4096, block * 8);
        for (size_t s = lo; s < hi; s += block) {
            size_t e = s + block < hi ? s + block : hi;
            for (size_t i = s; i < e; i++) buf[i - s] = A[i] * 2.0 + B[i] * 3.0 - 1.0;
            if (pwrite(out_fd, buf, (e - s) * 8, s * 8) < 0) perror("pwrite");
        }
        free(buf);
        return 0;
    }
    madvise((char *)OUT + lo * 8, (hi - lo) * 8, POPULATE_WRITE);
    if (mode == 1) {
        for (size_t i = lo; i < hi; i++) OUT[i] = A[i] * 2.0 + B[i] * 3.0 - 1.0;
    } else if (mode == 2) {
        for (size_t i = lo; i < hi; i += 2) {
            __m128d x = _mm_loadu_pd(A + i), y = _mm_loadu_pd(B + i);
            __m128d v = _mm_sub_pd(_mm_add_pd(_mm_mul_pd(x, _mm_set1_pd(2.0)),
                                              _mm_mul_pd(y, _mm_set1_pd(3.0))),
                                   _mm_set1_pd(1.0));
            _mm_stream_pd(OUT + i, v);
        }
        _mm_sfence();
    }
    return 0;
}

static void two_threads(void *(*fn)(void *)) {
    pthread_t t[2];
    range_t halves[2] = {{0, N / 2}, {N / 2, N}};
    for (int k = 0; k < 2; k++) pthread_create(&t[k], 0, fn, &halves[k]);
    for (int k = 0; k < 2; k++) pthread_join(t[k], 0);
}

static double *input(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ftruncate(fd, BYTES) != 0) { perror(path); exit(1); }
    double *m = mmap(0, BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    for (size_t i = 0; i < N; i++) m[i] = drand48();
    munmap(m, BYTES);
    m = mmap(0, BYTES, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    close(fd);
    return m;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s DIR ROUNDS\n", argv[0]); return 2; }
    dir = argv[1];
    int rounds = atoi(argv[2]);
    A = input("w3_floor_a");
    B = input("w3_floor_b");
    ANON = aligned_alloc(2 << 20, BYTES);
    madvise(ANON, BYTES, MADV_HUGEPAGE);
    for (size_t i = 0; i < N; i++) ANON[i] = 1;
    const char *names[] = {"populate only", "plain stores", "NT stores", "pwrite 2MiB"};
    char out[512];
    snprintf(out, sizeof out, "%s/w3_floor_out", dir);
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        two_threads(sum_half);
        double bw = BYTES / (now() - t0);
        printf("read %.1f GB/s |", bw / 1e9);
        for (mode = 0; mode < 4; mode++) {
            double t1 = now();
            out_fd = open(out, O_RDWR | O_CREAT | O_TRUNC, 0644);
            if (out_fd < 0 || ftruncate(out_fd, BYTES) != 0) { perror(out); return 1; }
            if (mode < 3) {
                fallocate(out_fd, 0, 0, BYTES);
                OUT = mmap(0, BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, out_fd, 0);
            }
            two_threads(w3_half);
            if (mode < 3) munmap(OUT, BYTES);
            close(out_fd);
            double seconds = now() - t1;
            unlink(out);
            printf(" %s %.4f (%.0f%%)", names[mode], seconds, 100 * 3.0 * BYTES / seconds / bw);
        }
        printf("\n");
    }
    char path[512];
    snprintf(path, sizeof path, "%s/w3_floor_a", dir); unlink(path);
    snprintf(path, sizeof path, "%s/w3_floor_b", dir); unlink(path);
    return 0;
}
