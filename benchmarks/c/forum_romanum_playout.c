/*
 * Forum Romanum uniformly random playouts in plain C: the speed reference of
 * `python -m benchmarks.playouts --vs-c`.
 *
 * Written from the rules spec (docs/games/forum-romanum.md): a 7x7 board, 23 regions
 * (7 rows, 7 columns, 2 diagonals, 7 rectangular sections), settlement after every ply,
 * the end when every region is settled or deadlocked or after max_rounds rounds, and the
 * final settlement of the deadlocked regions. 2 players own two colours each and a turn
 * is two plies, one per colour, the first colour chosen by the player.
 *
 * The random draws are those of the numba engine's random_move, from the same
 * SplitMix64 stream, so a seed gives the same games in both (tests/benchmarks checks
 * this): in the 2-player game the turn's first colour (rand_below(2)); then the
 * destination, the k-th empty cell for k = rand_below(empty cells); then, once the
 * colour's hand is empty, the piece, the k-th of its pieces for k = rand_below(pieces).
 * rand_below(n) = ((next_u64 >> 32) * n) >> 32.
 *
 * Usage:
 *   forum_romanum_playout bench PLAYERS MAX_ROUNDS SEED CPU_SECONDS
 *       random games from the start until CPU_SECONDS of process CPU time are spent;
 *       prints {"games": G, "plies": P, "cpu_seconds": S}
 *   forum_romanum_playout trace PLAYERS MAX_ROUNDS SEED GAMES
 *       one line per game: plies, truncated, settled mask, occupied board, colour scores;
 *       then the move codes of the first game (colour << 12 | src << 6 | dst, src 63 from hand)
 *
 * Build: cc -O3 -march=native [-DUSE_PDEP=1] -o forum_romanum_playout forum_romanum_playout.c
 * (USE_PDEP picks the k-th set bit with the BMI2 pdep instruction; the build helper sets it
 * when the CPU has a fast one, as the numba engine decides).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if USE_PDEP
#include <immintrin.h>
#endif

#define SIZE 7
#define CELLS 49
#define FULL ((1ULL << CELLS) - 1)
#define N_REGIONS 23
#define MAX_COLOURS 6
#define REGIONS_PER_CELL 5
#define FROM_HAND 63

typedef struct {
    int players, colours, max_rounds;
    int player, submove, first_colour, turns;
    int terminal, truncated;
    uint32_t settled;
    uint64_t occupied, open_cells;
    int hand[MAX_COLOURS];
    uint64_t board[MAX_COLOURS];
    int score[MAX_COLOURS];
} State;

static uint64_t region_mask[N_REGIONS];
static int region_value[N_REGIONS];
static int cell_regions[CELLS][REGIONS_PER_CELL]; /* padded with -1 */

/* Sections I..VII as first column, first row, last column, last row (0-based). */
static const int sections[7][4] = {
    {0, 0, 2, 1}, {3, 0, 6, 1}, {0, 2, 1, 4}, {2, 2, 4, 4}, {5, 2, 6, 4}, {0, 5, 3, 6}, {4, 5, 6, 6}};

static void init_regions(void) {
    for (int i = 0; i < SIZE; i++) {
        for (int j = 0; j < SIZE; j++) {
            region_mask[i] |= 1ULL << (i * SIZE + j);     /* row i+1 */
            region_mask[7 + i] |= 1ULL << (j * SIZE + i); /* column i */
        }
        region_mask[14] |= 1ULL << (i * SIZE + i);
        region_mask[15] |= 1ULL << (i * SIZE + SIZE - 1 - i);
    }
    for (int k = 0; k < 7; k++)
        for (int r = sections[k][1]; r <= sections[k][3]; r++)
            for (int c = sections[k][0]; c <= sections[k][2]; c++)
                region_mask[16 + k] |= 1ULL << (r * SIZE + c);
    for (int r = 0; r < N_REGIONS; r++) region_value[r] = __builtin_popcountll(region_mask[r]);
    for (int cell = 0; cell < CELLS; cell++) {
        int n = 0;
        for (int r = 0; r < N_REGIONS; r++)
            if ((region_mask[r] >> cell) & 1) cell_regions[cell][n++] = r;
        while (n < REGIONS_PER_CELL) cell_regions[cell][n++] = -1;
    }
}

static const int pieces_by_players[7] = {0, 0, 8, 10, 8, 6, 5};

static void new_state(State *s, int players, int max_rounds) {
    memset(s, 0, sizeof *s);
    s->players = players;
    s->colours = players == 2 ? 4 : players;
    s->max_rounds = max_rounds;
    s->first_colour = -1;
    s->open_cells = FULL;
    for (int c = 0; c < s->colours; c++) s->hand[c] = pieces_by_players[players];
}

/* SplitMix64 (Steele, Lea & Flood 2014), as forumlab/core/rng.py. */
static inline uint64_t next_u64(uint64_t *rng) {
    uint64_t z = (*rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rand_below(uint64_t *rng, int n) {
    return (int)(((next_u64(rng) >> 32) * (uint64_t)n) >> 32);
}

static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }

/* select_in_byte[8 * w + j]: the index of the j-th set bit of the byte w (0 if none). */
static uint8_t select_in_byte[256 * 8];

static void init_select(void) {
    for (int w = 0; w < 256; w++)
        for (int i = 0, j = 0; i < 8; i++)
            if ((w >> i) & 1) select_in_byte[8 * w + j++] = (uint8_t)i;
}

/* Index of the k-th (0-based) set bit of x. */
static inline int select_bit(uint64_t x, int k) {
#if USE_PDEP
    return (int)_tzcnt_u64(_pdep_u64(1ULL << k, x));
#else
    /* Byte sums, their running totals, the byte holding the bit, then a table for the byte. */
    const uint64_t L8 = 0x0101010101010101ULL, H8 = 0x8080808080808080ULL;
    uint64_t b = x - ((x >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    uint64_t sums = b * L8;
    uint64_t above = ((sums | H8) - (uint64_t)(k + 1) * L8) & H8;
    int byte = popcount(~above & H8);
    int before = (int)(((sums << 8) >> (8 * byte)) & 0xFF);
    int w = (int)((x >> (8 * byte)) & 0xFF);
    return 8 * byte + select_in_byte[8 * w + k - before];
#endif
}

static void refresh_open_cells(State *s) {
    uint64_t u = 0;
    for (int r = 0; r < N_REGIONS; r++)
        if (!((s->settled >> r) & 1)) u |= region_mask[r];
    s->open_cells = u;
}

/* A full, unsettled region: settle it if one colour alone has the most pieces. */
static void settle(State *s, int r) {
    uint64_t mask = region_mask[r];
    int cnt[MAX_COLOURS], hi = -1, n_hi = 0, hi_colour = -1, lo = 99, n_lo = 0;
    for (int k = 0; k < s->colours; k++) {
        cnt[k] = popcount(s->board[k] & mask);
        if (cnt[k] > hi) { hi = cnt[k]; n_hi = 1; hi_colour = k; }
        else if (cnt[k] == hi) n_hi++;
        if (cnt[k] < lo) { lo = cnt[k]; n_lo = 1; }
        else if (cnt[k] == lo) n_lo++;
    }
    if (n_hi != 1) return; /* deadlocked */
    s->score[hi_colour] += region_value[r];
    int penalty = n_lo == 1 ? 4 : 2;
    for (int k = 0; k < s->colours; k++)
        if (cnt[k] == lo) s->score[k] -= penalty;
    s->settled |= 1u << r;
    refresh_open_cells(s);
}

/* The deadlocked (full, unsettled) regions at the end: +4 to each colour tied for the most,
   the fewest of the others lose 4 (2 each if tied); nobody loses when all are tied. */
static void final_settlement(State *s) {
    for (int r = 0; r < N_REGIONS; r++) {
        uint64_t mask = region_mask[r];
        if (((s->settled >> r) & 1) || (s->occupied & mask) != mask) continue;
        int cnt[MAX_COLOURS], hi = -1, n_hi = 0;
        for (int k = 0; k < s->colours; k++) {
            cnt[k] = popcount(s->board[k] & mask);
            if (cnt[k] > hi) { hi = cnt[k]; n_hi = 1; }
            else if (cnt[k] == hi) n_hi++;
        }
        if (n_hi == s->colours) {
            for (int k = 0; k < s->colours; k++) s->score[k] += 4;
            continue;
        }
        int lo = 99, n_lo = 0;
        for (int k = 0; k < s->colours; k++) {
            if (cnt[k] == hi) s->score[k] += 4;
            else if (cnt[k] < lo) { lo = cnt[k]; n_lo = 1; }
            else if (cnt[k] == lo) n_lo++;
        }
        int penalty = n_lo == 1 ? 4 : 2;
        for (int k = 0; k < s->colours; k++)
            if (cnt[k] == lo) s->score[k] -= penalty;
    }
}

static void play(State *s, int c, int src, int dst) {
    if (src == FROM_HAND) {
        s->hand[c]--;
    } else {
        s->board[c] ^= 1ULL << src;
        s->occupied ^= 1ULL << src;
    }
    s->board[c] |= 1ULL << dst;
    uint64_t occ = s->occupied | (1ULL << dst);
    s->occupied = occ;
    for (int k = 0; k < REGIONS_PER_CELL; k++) {
        int r = cell_regions[dst][k];
        if (r < 0) break;
        if ((occ & region_mask[r]) == region_mask[r] && !((s->settled >> r) & 1)) settle(s, r);
    }
    if (s->players == 2 && s->submove == 0) {
        s->submove = 1;
        s->first_colour = c;
    } else {
        s->submove = 0;
        s->first_colour = -1;
        s->turns++;
        s->player = s->player + 1 == s->players ? 0 : s->player + 1;
    }
    if ((s->open_cells & ~occ) == 0) {
        s->terminal = 1;
        final_settlement(s);
    } else if (s->max_rounds > 0 && s->turns >= s->max_rounds * s->players) {
        s->terminal = 1;
        s->truncated = 1;
        final_settlement(s);
    }
}

/* Play one uniformly random game from start to its end; return its plies. */
static long random_game(const State *start, State *s, uint64_t *rng, int *moves) {
    *s = *start;
    long plies = 0;
    while (!s->terminal) {
        int c;
        if (s->players == 2)
            c = s->submove == 0 ? 2 * s->player + rand_below(rng, 2) : s->first_colour ^ 1;
        else
            c = s->player;
        uint64_t empty = ~s->occupied & FULL;
        int dst = select_bit(empty, rand_below(rng, popcount(empty)));
        int src = FROM_HAND;
        if (s->hand[c] == 0) {
            uint64_t b = s->board[c];
            src = select_bit(b, rand_below(rng, popcount(b)));
        }
        if (moves) moves[plies] = c << 12 | src << 6 | dst;
        play(s, c, src, dst);
        plies++;
    }
    return plies;
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bench(const State *start, uint64_t rng, double seconds) {
    State s;
    long games = 0, plies = 0, batch = 64;
    double t0 = cpu_seconds(), spent;
    for (;;) {
        for (long g = 0; g < batch; g++) plies += random_game(start, &s, &rng, NULL);
        games += batch;
        spent = cpu_seconds() - t0;
        if (spent >= seconds) break;
        if (batch < (1L << 16)) batch *= 2;
    }
    printf("{\"games\": %ld, \"plies\": %ld, \"cpu_seconds\": %.6f}\n", games, plies, spent);
    return 0;
}

static int trace(const State *start, uint64_t rng, long games) {
    State s;
    /* The turn cap bounds a game: max_rounds turns of every player, two plies a turn at most. */
    int *first = malloc(sizeof(int) * ((size_t)start->max_rounds * start->players * 2 + 1));
    long first_plies = 0;
    for (long g = 0; g < games; g++) {
        long plies = random_game(start, &s, &rng, g == 0 ? first : NULL);
        if (g == 0) first_plies = plies;
        printf("%ld %d %u %llu", plies, s.truncated, s.settled, (unsigned long long)s.occupied);
        for (int c = 0; c < s.colours; c++) printf(" %d", s.score[c]);
        printf("\n");
    }
    printf("moves");
    for (long i = 0; i < first_plies; i++) printf(" %d", first[i]);
    printf("\n");
    free(first);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 6 || (strcmp(argv[1], "bench") && strcmp(argv[1], "trace"))) {
        fprintf(stderr, "usage: %s bench|trace PLAYERS MAX_ROUNDS SEED CPU_SECONDS|GAMES\n", argv[0]);
        return 2;
    }
    int players = atoi(argv[2]), max_rounds = atoi(argv[3]);
    if (players < 2 || players > 6 || max_rounds < 0 || (max_rounds == 0 && !strcmp(argv[1], "trace"))) {
        fprintf(stderr, "error: players must be 2-6 and max_rounds >= 0 (> 0 to trace)\n");
        return 2;
    }
    uint64_t seed = strtoull(argv[4], NULL, 10);
    init_regions();
    init_select();
    State start;
    new_state(&start, players, max_rounds);
    if (!strcmp(argv[1], "bench")) return bench(&start, seed, atof(argv[5]));
    return trace(&start, seed, atol(argv[5]));
}
