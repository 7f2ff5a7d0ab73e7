/* gateway.c: a day at the gateway: build readings with the helpers, stream them to a file, read them back
 * one at a time, copy one, merge two, print; and the service's table. */
#include <stdio.h>
#include <stdlib.h>

#include "gw/reading.pb.h"

static void check(pbj_status s, const char *what)
{
    if (s != PBJ_OK) {
        fprintf(stderr, "gateway: %s: %s\n", what, pbj_status_str(s));
        exit(1);
    }
}

/* A helper's result: NULL only when the arena is out of memory. */
static void *made(void *p)
{
    if (!p) check(PBJ_ERR_NOMEM, "build");
    return p;
}

/* Reading i of device "sensor-<i % 2>": everything lives in arena. */
static void build_reading(gw_Reading *r, int i, pbj_arena *arena)
{
    char id[16];
    snprintf(id, sizeof id, "sensor-%d", i % 2);
    gw_Reading_init(r);
    gw_Device *d = made(gw_Reading_mutable_device(r, arena));
    check(gw_Device_set_id(d, id, strlen(id), arena), "id");                 /* copied: id may go */
    check(gw_Device_set_key(d, "\x01\x02\x03", 3, arena), "key");
    check(gw_Device_put_tags(d, PBJ_STR("site"), PBJ_STR("north"), arena), "tags");   /* copied, in key order */
    check(gw_Device_put_tags(d, PBJ_STR("room"), i % 2 ? PBJ_STR("lab") : PBJ_STR("hall"), arena), "tags");
    if (i == 0) gw_Device_set_firmware(d, 7);
    r->at_ms = 1764500000000u + (uint64_t)i * 1000;
    r->severity = i == 3 ? gw_Severity_SEVERITY_ALARM : gw_Severity_SEVERITY_INFO;
    if (i % 3 == 0) gw_Reading_set_celsius(r, 20.5 + i);                  /* a oneof: the case is set too */
    else if (i % 3 == 1) gw_Reading_set_count(r, 10 * i);
    else check(gw_Reading_set_text(r, "door open", 9, arena), "text");
    for (int k = 0; k <= i; k++) check(gw_Reading_add_samples(r, k - i, arena), "samples");
    check(gw_Reading_put_gauges(r, PBJ_STR("volts"), 3.3 - i * 0.1, arena), "gauges");
    check(gw_Reading_put_gauges(r, PBJ_STR("amps"), 0.5 * i, arena), "gauges");   /* kept in key order */
    if (i == 3) check(gw_Reading_set_raw(r, "\xde\xad", 2, arena), "raw");
}

static void write_file(const char *path, gw_Reading *r)
{
    pbj_buf buf = {0};
    check(gw_Reading_encode_append(r, &buf), "encode");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf.data, 1, buf.len, f) != buf.len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
    pbj_buf_free(&buf);
}

static void print(const char *title, const gw_Reading *r)
{
    pbj_text t;
    pbj_text_init(&t);
    gw_Reading_print(r, &t);
    printf("%s\n%s", title, t.data);
    pbj_text_free(&t);
}

enum { READINGS = 4 };

/* gateway DIR: writes DIR/stream.bin (READINGS length-delimited readings), first.bin, last.bin, merged.bin. */
int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gateway DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/stream.bin", argv[1]);

    /* Write: one arena for the messages being built, reset after each. */
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    FILE *f = fopen(path, "w+b");
    if (!f) {
        perror(path);
        return 1;
    }
    pbj_sink out;
    pbj_sink_file(&out, f);
    for (int i = 0; i < READINGS; i++) {
        gw_Reading r;
        build_reading(&r, i, &arena);
        check(gw_Reading_write_delimited(&r, &out), "write");
        pbj_arena_reset(&arena);
    }
    pbj_sink_free(&out);

    /* Read back one at a time (the arena reset per message); keep copies of the first and the last. */
    rewind(f);
    pbj_arena keep;
    pbj_arena_init(&keep, NULL, 0);
    gw_Reading first, last;
    pbj_source in;
    pbj_source_file(&in, f);
    int n = 0;
    while (pbj_source_more(&in)) {
        pbj_arena_reset(&arena);
        gw_Reading r;
        check(gw_Reading_read_delimited(&r, &in, &arena, NULL), "read");
        printf("reading %d: %.*s at %llu, value case %d, %zu samples\n", n, (int)r.device->id.len,
               (const char *)r.device->id.data, (unsigned long long)r.at_ms, (int)r.value_case, r.samples.count);
        check(gw_Reading_copy(n == 0 ? &first : &last, &r, &keep), "copy");     /* deep: r's arena is reused */
        n++;
    }
    check(in.status, "stream");
    pbj_source_free(&in);
    fclose(f);
    printf("read %d readings\n", n);

    /* Merge the last into the first, as protobuf merges: what decoding both encodings one after the other gives. */
    gw_Reading merged;
    check(gw_Reading_copy(&merged, &first, &keep), "copy");
    check(gw_Reading_merge(&merged, &last, &keep), "merge");
    const char *names[] = {"first.bin", "last.bin", "merged.bin"};
    gw_Reading *messages[] = {&first, &last, &merged};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof path, "%s/%s", argv[1], names[i]);
        write_file(path, messages[i]);
    }
    print("merged:", &merged);

    for (size_t i = 0; i < gw_Gateway_service.count; i++) {
        const pbj_method *m = &gw_Gateway_service.methods[i];
        printf("rpc %s (%s%s) returns (%s%s)\n", m->path, m->client_streaming ? "stream " : "", m->request,
               m->server_streaming ? "stream " : "", m->response);
    }
    pbj_arena_free(&keep);
    pbj_arena_free(&arena);
    return 0;
}
