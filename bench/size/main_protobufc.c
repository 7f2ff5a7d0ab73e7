/* main_protobufc.c: the Cortex-M4 program of `make bench-size` (bench/size.sh) on protobuf-c's generated code:
 * encode one sensor.Reading, decode it (protobuf-c allocates with malloc), return a checksum of what came back. */
#include <string.h>

#include "sensor.pb-c.h"

static uint8_t wire[128];

int main(void)
{
    static uint32_t samples[] = {17, 300, 4096};
    Sensor__Reading r = SENSOR__READING__INIT;
    Sensor__Status status = SENSOR__STATUS__INIT;
    r.id = 7;
    r.temperature = -215;
    r.humidity = 0.5f;
    r.location = (char *)"roof";
    r.n_samples = 3;
    r.samples = samples;
    status.ok = 1;
    status.code = 3;
    r.status = &status;
    r.unit = SENSOR__UNIT__UNIT_CELSIUS;
    if (sensor__reading__get_packed_size(&r) > sizeof wire) return 1;
    size_t len = sensor__reading__pack(&r, wire);
    Sensor__Reading *back = sensor__reading__unpack(NULL, len, wire);
    if (!back) return 2;
    int sum = (int)(back->id + back->n_samples + strlen(back->location) + (back->status ? back->status->code : 0));
    sensor__reading__free_unpacked(back, NULL);
    return sum;
}
