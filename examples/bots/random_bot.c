/* A random bot for forumlab's bot protocol (forumlab-bot/1), in C99 with the C library only.
 *
 * Build:  cc -O2 -o random_bot examples/bots/random_bot.c
 * Play:   forumlab play forum-romanum -a 'cmd:./random_bot,random,random'
 * Check:  forumlab bot check ./random_bot
 *
 * It asks for the legal moves in its handshake and plays one at random, seeded by the
 * new_game message's seed. Messages are one JSON object a line (docs/bot-protocol.md);
 * the small scanner below reads the top-level fields it needs and skips every other
 * value, so a referee that adds fields breaks nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *HELLO =
    "{\"type\":\"hello\",\"protocol\":\"forumlab-bot/1\",\"name\":\"random-c\",\"version\":\"1.0\","
    "\"games\":[\"forma\",\"forum-romanum\",\"forum-trajanum\",\"foundations-of-rome\"],"
    "\"options\":{},\"budgets\":[],\"lifetime\":\"game\",\"legal_moves\":true}";

static uint64_t rng_state = 1;

/* SplitMix64: a good small generator for the bot's own randomness. */
static uint64_t next_random(void) {
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    return p;
}

/* p at a '"': returns the character after the closing quote (escapes skipped). */
static const char *skip_string(const char *p) {
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : p;
}

/* p at any JSON value: returns the character after it. */
static const char *skip_value(const char *p) {
    p = skip_space(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; *p; p++) {
            if (*p == '"') { p = skip_string(p) - 1; continue; }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') { if (--depth == 0) return p + 1; }
        }
        return p;
    }
    while (*p && *p != ',' && *p != '}' && *p != ']') p++; /* number, true, false, null */
    return p;
}

/* The value of top-level key `key` of the object in `line`, or NULL. */
static const char *find_key(const char *line, const char *key) {
    size_t n = strlen(key);
    const char *p = skip_space(line);
    if (*p != '{') return NULL;
    p = skip_space(p + 1);
    while (*p == '"') {
        const char *end = skip_string(p);
        int match = (size_t)(end - p - 2) == n && strncmp(p + 1, key, n) == 0;
        p = skip_space(end);
        if (*p != ':') return NULL;
        p = skip_space(p + 1);
        if (match) return p;
        p = skip_space(skip_value(p));
        if (*p != ',') return NULL;
        p = skip_space(p + 1);
    }
    return NULL;
}

static int is_type(const char *line, const char *type) {
    const char *v = find_key(line, "type");
    size_t n = strlen(type);
    return v && *v == '"' && strncmp(v + 1, type, n) == 0 && v[n + 1] == '"';
}

/* Answer a move request: one of "legal_moves", copied as its JSON string (escapes kept). */
static void answer_move(const char *line) {
    const char *p = find_key(line, "legal_moves");
    const char *pick = NULL;
    uint64_t count = 0;
    if (p == NULL || *p != '[') { fprintf(stderr, "no legal_moves in the request\n"); exit(3); }
    /* Reservoir sampling: one pass, each move kept with probability 1/count. */
    for (p = skip_space(p + 1); *p == '"'; ) {
        count++;
        if (next_random() % count == 0) pick = p;
        p = skip_space(skip_string(p));
        if (*p == ',') p = skip_space(p + 1);
    }
    if (pick == NULL) { fprintf(stderr, "empty legal_moves\n"); exit(3); }
    fputs("{\"type\":\"move\",\"move\":", stdout);
    fwrite(pick, 1, (size_t)(skip_string(pick) - pick), stdout);
    fputs("}\n", stdout);
    fflush(stdout);
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    while (getline(&line, &size, stdin) > 0) {
        if (is_type(line, "hello")) {
            printf("%s\n", HELLO);
            fflush(stdout);
        } else if (is_type(line, "new_game")) {
            const char *seed = find_key(line, "seed");
            rng_state = seed ? (uint64_t)strtoll(seed, NULL, 10) : 0;
            puts("{\"type\":\"ready\"}");
            fflush(stdout);
        } else if (is_type(line, "move")) {
            answer_move(line);
        } else if (is_type(line, "quit")) {
            break;
        } /* game_over and unknown message types need no answer */
    }
    free(line);
    return 0;
}
