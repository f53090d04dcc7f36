from google.protobuf import json_format
from google.protobuf.any_pb2 import Any
from google.rpc import error_details_pb2  # noqa: F401  (registers google.rpc.* messages in the default pool)
a = json_format.Parse('{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "r"}', Any())
print(a.type_url)
