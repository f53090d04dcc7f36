from jsonschema import SchemaError
from jsonschema.validators import validator_for
print(SchemaError.__name__, validator_for({}).__name__)
