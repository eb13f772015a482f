/*
 * Reference codec of the shoe protocol, version 2 (see ../PROTOCOL.md).
 * C99, no allocation, no I/O: the firmware owns the UART and the clock.
 */
#ifndef SHOE_PROTO_H
#define SHOE_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define SP_PROTOCOL_VERSION 2u
#define SP_SYNC 0x7Eu
#define SP_END 0x7Fu
#define SP_MAX_PAYLOAD 64u
#define SP_OVERHEAD 7u
#define SP_MAX_FRAME (SP_OVERHEAD + SP_MAX_PAYLOAD)
#define SP_MAX_TEXT 32u
#define SP_FLAG_BURN 0x01u
/* The shoe shows red when no valid frame came from the station for this long. */
#define SP_STATION_SILENCE_MS 3000u

enum sp_type {
    SP_HELLO = 0x01,
    SP_HEARTBEAT = 0x02,
    SP_CARD = 0x41,
    SP_CARD_UNREAD = 0x42,
    SP_SHOE_STATE = 0x43,
    SP_ERROR = 0x44,
    SP_ACK = 0x81,
    SP_NAK = 0x82,
    SP_RESET = 0x83,
    SP_INDICATOR = 0x84,
    SP_KEEPALIVE = 0x85
};

enum sp_result {
    SP_OK = 0,
    SP_ERR_UNKNOWN_TYPE = -1,
    SP_ERR_BAD_LENGTH = -2,
    SP_ERR_BAD_FIELD = -3
};

/* CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final XOR. */
uint16_t sp_crc16(const uint8_t *data, size_t len);

/* Sequenced (acknowledged, retransmitted) types are 0x40..0x7F. */
int sp_is_sequenced(uint8_t type);

/* Writes SYNC LEN SEQ TYPE PAYLOAD CRC END into out; returns the frame length, or 0 if len > 64. */
size_t sp_encode_frame(uint8_t seq, uint8_t type, const uint8_t *payload, size_t len,
                       uint8_t out[SP_MAX_FRAME]);

typedef struct {
    uint8_t seq;
    uint8_t type;
    uint8_t len;
    uint8_t payload[SP_MAX_PAYLOAD];
} sp_frame;

typedef struct {
    uint32_t frames;
    uint32_t bytes_discarded;
    uint32_t bad_length;
    uint32_t bad_check; /* CRC or END byte wrong */
    uint32_t truncated;
} sp_counters;

typedef void (*sp_frame_handler)(const sp_frame *frame, void *context);

/* Streaming decoder (PROTOCOL.md section 3). Zero-initialise, or call sp_decoder_init. */
typedef struct {
    uint8_t buf[SP_MAX_FRAME];
    size_t n;
    sp_counters counters;
} sp_decoder;

void sp_decoder_init(sp_decoder *d);
/* Feeds bytes; calls handler once per valid frame, in order. */
void sp_decoder_push(sp_decoder *d, const uint8_t *data, size_t len, sp_frame_handler handler,
                     void *context);
/* The line went idle with a partial frame held: drop its SYNC and rescan (section 3.3). */
void sp_decoder_abandon(sp_decoder *d, sp_frame_handler handler, void *context);

typedef struct {
    uint8_t protocol_version;
    uint32_t boot_id;
    uint8_t next_seq;
    char vendor[SP_MAX_TEXT + 1];
    char model[SP_MAX_TEXT + 1];
    char serial_number[SP_MAX_TEXT + 1];
    char firmware_version[SP_MAX_TEXT + 1];
    /* The challenge of the RESET answered (0 at power-up), after the texts.
       has_challenge 0: a version 1 HELLO, which ends with the texts. */
    uint8_t has_challenge;
    uint32_t challenge;
} sp_hello;

typedef struct {
    uint32_t uptime_ms;
    uint8_t indicator;
} sp_heartbeat;

typedef struct {
    uint16_t insertion; /* 1 for the first shoe inserted since power-up, +1 per insertion */
    uint16_t index;
    uint8_t rank; /* 1 = A .. 13 = K */
    uint8_t suit; /* 0 clubs, 1 diamonds, 2 hearts, 3 spades */
    uint8_t burn;
    uint32_t shoe_time_ms;
} sp_card;

typedef struct {
    uint16_t insertion;
    uint16_t index;
    uint8_t burn;
    uint32_t shoe_time_ms;
    uint8_t reason;
} sp_card_unread;

typedef struct {
    uint8_t state; /* 1 inserted, 2 removed, 3 empty, 4 cut card */
    uint32_t shoe_time_ms;
} sp_shoe_state;

typedef struct {
    uint8_t code;
    char text[SP_MAX_TEXT + 1];
} sp_error;

typedef struct {
    uint8_t protocol_version;
    uint32_t challenge; /* echoed in the HELLO that answers this RESET */
} sp_reset;

typedef struct {
    uint8_t type; /* enum sp_type */
    union {
        sp_hello hello;
        sp_heartbeat heartbeat;
        sp_card card;
        sp_card_unread card_unread;
        sp_shoe_state shoe_state;
        sp_error error;
        sp_reset reset;
        uint8_t value; /* ACK/NAK: expected seq; INDICATOR: colour; KEEPALIVE: none */
    } u;
} sp_message;

/* Returns SP_OK or a negative enum sp_result saying why the frame holds no message. */
int sp_decode_message(const sp_frame *frame, sp_message *message);

/* Returns the frame length written to out, or a negative enum sp_result. */
int sp_encode_message(const sp_message *message, uint8_t seq, uint8_t out[SP_MAX_FRAME]);

#endif
