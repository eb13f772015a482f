/* Reference codec of the shoe protocol, version 1. See shoe_proto.h and ../PROTOCOL.md. */
#include "shoe_proto.h"

#include <string.h>

uint16_t sp_crc16(const uint8_t *data, size_t len)
{
    uint16_t crc = 0xFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)((uint16_t)data[i] << 8);
        for (int bit = 0; bit < 8; bit++) {
            crc = (crc & 0x8000u) ? (uint16_t)((crc << 1) ^ 0x1021u) : (uint16_t)(crc << 1);
        }
    }
    return crc;
}

int sp_is_sequenced(uint8_t type)
{
    return type >= 0x40u && type <= 0x7Fu;
}

size_t sp_encode_frame(uint8_t seq, uint8_t type, const uint8_t *payload, size_t len,
                       uint8_t out[SP_MAX_FRAME])
{
    if (len > SP_MAX_PAYLOAD) {
        return 0;
    }
    out[0] = SP_SYNC;
    out[1] = (uint8_t)len;
    out[2] = seq;
    out[3] = type;
    if (len > 0) {
        memcpy(&out[4], payload, len);
    }
    uint16_t crc = sp_crc16(&out[1], len + 3u);
    out[4 + len] = (uint8_t)(crc >> 8);
    out[5 + len] = (uint8_t)(crc & 0xFFu);
    out[6 + len] = SP_END;
    return len + SP_OVERHEAD;
}

void sp_decoder_init(sp_decoder *d)
{
    memset(d, 0, sizeof *d);
}

static void drop_front(sp_decoder *d, size_t count)
{
    memmove(d->buf, d->buf + count, d->n - count);
    d->n -= count;
}

static void discard(sp_decoder *d, size_t count)
{
    d->counters.bytes_discarded += (uint32_t)count;
    drop_front(d, count);
}

static void scan(sp_decoder *d, sp_frame_handler handler, void *context)
{
    for (;;) {
        if (d->n == 0) {
            return;
        }
        if (d->buf[0] != SP_SYNC) {
            size_t i = 1;
            while (i < d->n && d->buf[i] != SP_SYNC) {
                i++;
            }
            discard(d, i);
            continue;
        }
        if (d->n < 2) {
            return;
        }
        size_t len = d->buf[1];
        if (len > SP_MAX_PAYLOAD) {
            d->counters.bad_length++;
            discard(d, 1);
            continue;
        }
        size_t need = len + SP_OVERHEAD;
        if (d->n < need) {
            return;
        }
        uint16_t received = (uint16_t)(((uint16_t)d->buf[4 + len] << 8) | d->buf[5 + len]);
        if (d->buf[6 + len] != SP_END || sp_crc16(&d->buf[1], len + 3u) != received) {
            d->counters.bad_check++;
            discard(d, 1);
            continue;
        }
        sp_frame frame;
        frame.len = (uint8_t)len;
        frame.seq = d->buf[2];
        frame.type = d->buf[3];
        memcpy(frame.payload, &d->buf[4], len);
        d->counters.frames++;
        drop_front(d, need);
        handler(&frame, context);
    }
}

void sp_decoder_push(sp_decoder *d, const uint8_t *data, size_t len, sp_frame_handler handler,
                     void *context)
{
    /* One byte at a time keeps the buffer within one maximum frame. */
    for (size_t i = 0; i < len; i++) {
        d->buf[d->n++] = data[i];
        scan(d, handler, context);
    }
}

void sp_decoder_abandon(sp_decoder *d, sp_frame_handler handler, void *context)
{
    if (d->n == 0) {
        return;
    }
    d->counters.truncated++;
    discard(d, 1);
    scan(d, handler, context);
}

/* ---- payload fields ---- */

static uint16_t get16(const uint8_t *p)
{
    return (uint16_t)(((uint16_t)p[0] << 8) | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* Reads a length-prefixed text at *pos; returns SP_OK or the error. */
static int get_text(const sp_frame *f, size_t *pos, char out[SP_MAX_TEXT + 1])
{
    if (*pos >= f->len) {
        return SP_ERR_BAD_LENGTH;
    }
    size_t n = f->payload[*pos];
    if (n > SP_MAX_TEXT || *pos + 1u + n > f->len) {
        return SP_ERR_BAD_LENGTH;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t c = f->payload[*pos + 1u + i];
        if (c < 0x20u || c > 0x7Eu) {
            return SP_ERR_BAD_FIELD;
        }
        out[i] = (char)c;
    }
    out[n] = '\0';
    *pos += 1u + n;
    return SP_OK;
}

/* Appends a length-prefixed text; returns SP_OK or the error. */
static int put_text(uint8_t *payload, size_t *pos, const char *text)
{
    size_t n = strlen(text);
    if (n > SP_MAX_TEXT || *pos + 1u + n > SP_MAX_PAYLOAD) {
        return SP_ERR_BAD_LENGTH;
    }
    payload[(*pos)++] = (uint8_t)n;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)text[i];
        if (c < 0x20u || c > 0x7Eu) {
            return SP_ERR_BAD_FIELD;
        }
        payload[(*pos)++] = c;
    }
    return SP_OK;
}

static int decode_hello(const sp_frame *f, sp_hello *h)
{
    if (f->len < 6u) {
        return SP_ERR_BAD_LENGTH;
    }
    h->protocol_version = f->payload[0];
    h->boot_id = get32(&f->payload[1]);
    h->next_seq = f->payload[5];
    size_t pos = 6;
    int r;
    if ((r = get_text(f, &pos, h->vendor)) != SP_OK ||
        (r = get_text(f, &pos, h->model)) != SP_OK ||
        (r = get_text(f, &pos, h->serial_number)) != SP_OK ||
        (r = get_text(f, &pos, h->firmware_version)) != SP_OK) {
        return r;
    }
    h->has_challenge = 0;
    h->challenge = 0;
    if (pos == f->len) {
        return SP_OK;
    }
    if (pos + 4u != f->len) {
        return SP_ERR_BAD_LENGTH;
    }
    h->has_challenge = 1;
    h->challenge = get32(&f->payload[pos]);
    return SP_OK;
}

int sp_decode_message(const sp_frame *f, sp_message *m)
{
    const uint8_t *p = f->payload;
    m->type = f->type;
    switch (f->type) {
    case SP_HELLO:
        return decode_hello(f, &m->u.hello);
    case SP_HEARTBEAT:
        if (f->len != 5u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.heartbeat.uptime_ms = get32(p);
        m->u.heartbeat.indicator = p[4];
        return p[4] <= 2u ? SP_OK : SP_ERR_BAD_FIELD;
    case SP_CARD:
        if (f->len != 11u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.card.insertion = get16(p);
        m->u.card.index = get16(&p[2]);
        m->u.card.rank = p[4];
        m->u.card.suit = p[5];
        m->u.card.burn = (uint8_t)(p[6] & SP_FLAG_BURN);
        m->u.card.shoe_time_ms = get32(&p[7]);
        if (p[4] < 1u || p[4] > 13u || p[5] > 3u) {
            return SP_ERR_BAD_FIELD;
        }
        return SP_OK;
    case SP_CARD_UNREAD:
        if (f->len != 10u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.card_unread.insertion = get16(p);
        m->u.card_unread.index = get16(&p[2]);
        m->u.card_unread.burn = (uint8_t)(p[4] & SP_FLAG_BURN);
        m->u.card_unread.shoe_time_ms = get32(&p[5]);
        m->u.card_unread.reason = p[9];
        return p[9] <= 3u ? SP_OK : SP_ERR_BAD_FIELD;
    case SP_SHOE_STATE:
        if (f->len != 5u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.shoe_state.state = p[0];
        m->u.shoe_state.shoe_time_ms = get32(&p[1]);
        return (p[0] >= 1u && p[0] <= 4u) ? SP_OK : SP_ERR_BAD_FIELD;
    case SP_ERROR: {
        if (f->len < 1u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.error.code = p[0];
        size_t pos = 1;
        int r = get_text(f, &pos, m->u.error.text);
        if (r != SP_OK) {
            return r;
        }
        return pos == f->len ? SP_OK : SP_ERR_BAD_LENGTH;
    }
    case SP_RESET:
        if (f->len != 5u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.reset.protocol_version = p[0];
        m->u.reset.challenge = get32(&p[1]);
        return SP_OK;
    case SP_ACK:
    case SP_NAK:
    case SP_INDICATOR:
        if (f->len != 1u) {
            return SP_ERR_BAD_LENGTH;
        }
        m->u.value = p[0];
        if (f->type == SP_INDICATOR && p[0] > 2u) {
            return SP_ERR_BAD_FIELD;
        }
        return SP_OK;
    case SP_KEEPALIVE:
        m->u.value = 0;
        return f->len == 0u ? SP_OK : SP_ERR_BAD_LENGTH;
    default:
        return SP_ERR_UNKNOWN_TYPE;
    }
}

int sp_encode_message(const sp_message *m, uint8_t seq, uint8_t out[SP_MAX_FRAME])
{
    uint8_t p[SP_MAX_PAYLOAD];
    size_t len = 0;
    int r = SP_OK;
    switch (m->type) {
    case SP_HELLO: {
        const sp_hello *h = &m->u.hello;
        p[0] = h->protocol_version;
        put32(&p[1], h->boot_id);
        p[5] = h->next_seq;
        len = 6;
        if ((r = put_text(p, &len, h->vendor)) != SP_OK ||
            (r = put_text(p, &len, h->model)) != SP_OK ||
            (r = put_text(p, &len, h->serial_number)) != SP_OK ||
            (r = put_text(p, &len, h->firmware_version)) != SP_OK) {
            return r;
        }
        if (h->has_challenge) {
            if (len + 4u > SP_MAX_PAYLOAD) {
                return SP_ERR_BAD_LENGTH;
            }
            put32(&p[len], h->challenge);
            len += 4u;
        }
        break;
    }
    case SP_HEARTBEAT:
        put32(p, m->u.heartbeat.uptime_ms);
        p[4] = m->u.heartbeat.indicator;
        len = 5;
        break;
    case SP_CARD:
        if (m->u.card.rank < 1u || m->u.card.rank > 13u || m->u.card.suit > 3u) {
            return SP_ERR_BAD_FIELD;
        }
        put16(p, m->u.card.insertion);
        put16(&p[2], m->u.card.index);
        p[4] = m->u.card.rank;
        p[5] = m->u.card.suit;
        p[6] = m->u.card.burn ? SP_FLAG_BURN : 0u;
        put32(&p[7], m->u.card.shoe_time_ms);
        len = 11;
        break;
    case SP_CARD_UNREAD:
        put16(p, m->u.card_unread.insertion);
        put16(&p[2], m->u.card_unread.index);
        p[4] = m->u.card_unread.burn ? SP_FLAG_BURN : 0u;
        put32(&p[5], m->u.card_unread.shoe_time_ms);
        p[9] = m->u.card_unread.reason;
        len = 10;
        break;
    case SP_SHOE_STATE:
        p[0] = m->u.shoe_state.state;
        put32(&p[1], m->u.shoe_state.shoe_time_ms);
        len = 5;
        break;
    case SP_ERROR:
        p[0] = m->u.error.code;
        len = 1;
        if ((r = put_text(p, &len, m->u.error.text)) != SP_OK) {
            return r;
        }
        break;
    case SP_RESET:
        p[0] = m->u.reset.protocol_version;
        put32(&p[1], m->u.reset.challenge);
        len = 5;
        break;
    case SP_ACK:
    case SP_NAK:
    case SP_INDICATOR:
        p[0] = m->u.value;
        len = 1;
        break;
    case SP_KEEPALIVE:
        len = 0;
        break;
    default:
        return SP_ERR_UNKNOWN_TYPE;
    }
    if (!sp_is_sequenced(m->type)) {
        seq = 0;
    }
    return (int)sp_encode_frame(seq, m->type, p, len, out);
}
