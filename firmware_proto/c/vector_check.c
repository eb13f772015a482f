/*
 * Runs the shared test vectors through the C codec and prints, per vector,
 * "name | outcome" in the notation of PROTOCOL.md section 7. The Python test
 * suite compares that output with the file's expected outcomes.
 *
 *   gcc -std=c99 -Wall -Wextra -Werror -pedantic shoe_proto.c vector_check.c -o vector_check
 *   ./vector_check ../vectors/frames.txt
 *
 * Exits 2 if the CRC check value is wrong, 3 on a malformed vector file.
 */
#include "shoe_proto.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define MAX_STREAM 1024
#define MAX_LINE 4096

static char out_line[MAX_LINE * 4];

static void emit(const char *text)
{
    strncat(out_line, text, sizeof out_line - strlen(out_line) - 1);
}

static void emit_text(const char *text)
{
    char buf[8];
    for (const char *c = text; *c; c++) {
        if (*c == ' ' || *c == '%' || *c == ':' || *c == '|') {
            snprintf(buf, sizeof buf, "%%%02X", (unsigned)(unsigned char)*c);
        } else {
            buf[0] = *c;
            buf[1] = '\0';
        }
        emit(buf);
    }
}

static const char RANKS[] = "A23456789TJQK";
static const char SUITS[] = "CDHS";

static void emit_meaning(const sp_message *m)
{
    char buf[160];
    switch (m->type) {
    case SP_HELLO:
        snprintf(buf, sizeof buf, "M:HELLO:v=%u:boot=%08lx:next=%u:vendor=",
                 m->u.hello.protocol_version, (unsigned long)m->u.hello.boot_id,
                 m->u.hello.next_seq);
        emit(buf);
        emit_text(m->u.hello.vendor);
        emit(":model=");
        emit_text(m->u.hello.model);
        emit(":serial=");
        emit_text(m->u.hello.serial_number);
        emit(":fw=");
        emit_text(m->u.hello.firmware_version);
        if (m->u.hello.has_challenge) {
            snprintf(buf, sizeof buf, ":ch=%08lx", (unsigned long)m->u.hello.challenge);
            emit(buf);
        } else {
            emit(":ch=-");
        }
        return;
    case SP_HEARTBEAT:
        snprintf(buf, sizeof buf, "M:HEARTBEAT:up=%lu:ind=%u",
                 (unsigned long)m->u.heartbeat.uptime_ms, m->u.heartbeat.indicator);
        break;
    case SP_CARD:
        snprintf(buf, sizeof buf, "M:CARD:n=%u:i=%u:card=%c%c:burn=%u:t=%lu",
                 m->u.card.insertion, m->u.card.index, RANKS[m->u.card.rank - 1], SUITS[m->u.card.suit], m->u.card.burn ? 1u : 0u,
                 (unsigned long)m->u.card.shoe_time_ms);
        break;
    case SP_CARD_UNREAD:
        snprintf(buf, sizeof buf, "M:CARD_UNREAD:n=%u:i=%u:burn=%u:t=%lu:reason=%u",
                 m->u.card_unread.insertion, m->u.card_unread.index, m->u.card_unread.burn ? 1u : 0u,
                 (unsigned long)m->u.card_unread.shoe_time_ms, m->u.card_unread.reason);
        break;
    case SP_SHOE_STATE:
        snprintf(buf, sizeof buf, "M:SHOE_STATE:state=%u:t=%lu", m->u.shoe_state.state,
                 (unsigned long)m->u.shoe_state.shoe_time_ms);
        break;
    case SP_ERROR:
        snprintf(buf, sizeof buf, "M:ERROR:code=%u:text=", m->u.error.code);
        emit(buf);
        emit_text(m->u.error.text);
        return;
    case SP_ACK:
        snprintf(buf, sizeof buf, "M:ACK:%u", m->u.value);
        break;
    case SP_NAK:
        snprintf(buf, sizeof buf, "M:NAK:%u", m->u.value);
        break;
    case SP_RESET:
        snprintf(buf, sizeof buf, "M:RESET:v=%u:ch=%08lx", m->u.reset.protocol_version,
                 (unsigned long)m->u.reset.challenge);
        break;
    case SP_INDICATOR:
        snprintf(buf, sizeof buf, "M:INDICATOR:%u", m->u.value);
        break;
    case SP_KEEPALIVE:
        snprintf(buf, sizeof buf, "M:KEEPALIVE");
        break;
    default:
        snprintf(buf, sizeof buf, "M:?");
        break;
    }
    emit(buf);
}

static void on_reencoded(const sp_frame *f, void *context)
{
    if (sp_decode_message(f, (sp_message *)context) != SP_OK) {
        ((sp_message *)context)->type = 0;
    }
}

static void on_frame(const sp_frame *f, void *context)
{
    (void)context;
    char buf[16];
    snprintf(buf, sizeof buf, " F:%02x:%02x:", f->seq, f->type);
    emit(buf);
    if (f->len == 0) {
        emit("-");
    }
    for (size_t i = 0; i < f->len; i++) {
        snprintf(buf, sizeof buf, "%02x", f->payload[i]);
        emit(buf);
    }
    emit(" ");
    sp_message m;
    int r = sp_decode_message(f, &m);
    switch (r) {
    case SP_OK: {
        /* Encoding the decoded message and decoding it again must mean the same. */
        size_t start = strlen(out_line);
        emit_meaning(&m);
        static char first[512];
        snprintf(first, sizeof first, "%s", out_line + start);
        uint8_t again[SP_MAX_FRAME];
        int k = sp_encode_message(&m, f->seq, again);
        sp_decoder d;
        sp_decoder_init(&d);
        static sp_message m2;
        static int decoded;
        decoded = 0;
        if (k > 0) {
            sp_decoder_push(&d, again, (size_t)k, on_reencoded, &m2);
            decoded = d.counters.frames == 1;
        }
        size_t mark = strlen(out_line);
        if (decoded) {
            emit_meaning(&m2);
        }
        int same = decoded && strcmp(out_line + mark, first) == 0;
        out_line[mark] = '\0';
        if (!same) {
            emit(" X:reencode");
        }
        break;
    }
    case SP_ERR_UNKNOWN_TYPE:
        emit("E:unknown_type");
        break;
    case SP_ERR_BAD_LENGTH:
        emit("E:bad_length");
        break;
    default:
        emit("E:bad_field");
        break;
    }
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = (char)tolower((unsigned char)c);
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ') {
        s++;
    }
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\r')) {
        s[--n] = '\0';
    }
    return s;
}

int main(int argc, char **argv)
{
    if (sp_crc16((const uint8_t *)"123456789", 9) != 0x29B1u) {
        fprintf(stderr, "CRC-16/CCITT-FALSE check value is not 0x29B1\n");
        return 2;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: %s VECTOR_FILE\n", argv[0]);
        return 3;
    }
    FILE *file = fopen(argv[1], "r");
    if (!file) {
        perror(argv[1]);
        return 3;
    }
    static char line[MAX_LINE];
    static uint8_t stream[MAX_STREAM];
    while (fgets(line, sizeof line, file)) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        char *bar1 = strchr(line, '|');
        char *bar2 = bar1 ? strchr(bar1 + 1, '|') : NULL;
        if (!bar2) {
            fprintf(stderr, "malformed vector: %s", line);
            return 3;
        }
        *bar1 = '\0';
        *bar2 = '\0';
        char *name = trim(line);
        char *hex = trim(bar1 + 1);
        size_t n = 0;
        int hi = -1;
        for (char *c = hex; *c; c++) {
            int v = hex_value(*c);
            if (v < 0) {
                continue;
            }
            if (hi < 0) {
                hi = v;
            } else {
                if (n == MAX_STREAM) {
                    fprintf(stderr, "vector %s is too long\n", name);
                    return 3;
                }
                stream[n++] = (uint8_t)(hi << 4 | v);
                hi = -1;
            }
        }
        sp_decoder d;
        sp_decoder_init(&d);
        out_line[0] = '\0';
        sp_decoder_push(&d, stream, n, on_frame, NULL);
        printf("%s |%s discarded=%lu bad_length=%lu bad_check=%lu pending=%lu\n", name, out_line,
               (unsigned long)d.counters.bytes_discarded, (unsigned long)d.counters.bad_length,
               (unsigned long)d.counters.bad_check, (unsigned long)d.n);
    }
    fclose(file);
    return 0;
}
