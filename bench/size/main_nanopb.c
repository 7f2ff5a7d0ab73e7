/* main_nanopb.c: the Cortex-M4 program of `make bench-size` (bench/size.sh) on nanopb's generated code: encode
 * one sensor.Reading, decode it, return a checksum of what came back. */
#include <string.h>

#include <pb_decode.h>
#include <pb_encode.h>

#include "sensor.pb.h"

static uint8_t wire[128];

int main(void)
{
    sensor_Reading r = sensor_Reading_init_zero;
    r.id = 7;
    r.temperature = -215;
    r.humidity = 0.5f;
    strcpy(r.location, "roof");
    r.samples_count = 3;
    r.samples[0] = 17;
    r.samples[1] = 300;
    r.samples[2] = 4096;
    r.has_status = true;
    r.status.ok = true;
    r.status.code = 3;
    r.unit = sensor_Unit_UNIT_CELSIUS;
    pb_ostream_t out = pb_ostream_from_buffer(wire, sizeof wire);
    if (!pb_encode(&out, sensor_Reading_fields, &r)) return 1;
    sensor_Reading back = sensor_Reading_init_zero;
    pb_istream_t in = pb_istream_from_buffer(wire, out.bytes_written);
    if (!pb_decode(&in, sensor_Reading_fields, &back)) return 2;
    return (int)(back.id + back.samples_count + strlen(back.location) + back.status.code);
}
