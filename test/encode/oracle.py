# oracle.py DESC TYPE [-e] HEX...: each input parsed as TYPE and serialized again by protobuf's C++ runtime (3.21,
# python3-protobuf's cpp backend: the code protoc is built on), one line each as unit --msgset prints it; with -e
# an input protobuf rejects prints "error" (else it stops the run: not a reproducer).
import sys
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.internal import api_implementation

if api_implementation.Type() != 'cpp':
    sys.exit('oracle.py: python3-protobuf does not use the C++ runtime (%s)' % api_implementation.Type())
fds = descriptor_pb2.FileDescriptorSet()
with open(sys.argv[1], 'rb') as f:
    fds.ParseFromString(f.read())
pool = descriptor_pool.DescriptorPool()
for fd in fds.file:
    pool.Add(fd)
cls = message_factory.MessageFactory(pool).GetPrototype(pool.FindMessageTypeByName(sys.argv[2]))
errors_ok = sys.argv[3:4] == ['-e']
for h in sys.argv[4 if errors_ok else 3:]:
    m = cls()
    try:
        m.ParseFromString(bytes.fromhex(h))
    except Exception:
        if not errors_ok:
            sys.exit('oracle.py: protobuf rejects %s: not a reproducer' % h)
        print(h, '-> error')
        continue
    print(h, '->', m.SerializeToString().hex())
