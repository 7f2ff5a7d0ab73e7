/* main_pbjc.c: the Cortex-M4 program of `make bench-size` (bench/size.sh) on pbjc's generated code: encode one
 * sensor.Reading, decode it into a fixed arena, return a checksum of what came back. */
#include "sensor.pb.h"

static uint8_t wire[128];
static uint8_t arena_memory[512];

int main(void)
{
    static const uint32_t samples[] = {17, 300, 4096};
    sensor_Reading r;
    sensor_Reading_init(&r);
    r.id = 7;
    r.temperature = -215;
    r.humidity = 0.5f;
    r.location = (pbj_slice){(const uint8_t *)"roof", 4};
    r.samples.data = (uint32_t *)samples;
    r.samples.count = 3;
    sensor_Status status = {.ok = true, .code = 3};
    r.status = &status;
    r.unit = sensor_Unit_UNIT_CELSIUS;
    size_t len;
    if (sensor_Reading_encode(&r, wire, sizeof wire, &len) != PBJ_OK) return 1;
    pbj_arena arena;
    pbj_arena_init(&arena, arena_memory, sizeof arena_memory);
    sensor_Reading back;
    if (sensor_Reading_decode(&back, wire, len, &arena, NULL) != PBJ_OK) return 2;
    return (int)(back.id + back.samples.count + back.location.len + (back.status ? back.status->code : 0));
}
