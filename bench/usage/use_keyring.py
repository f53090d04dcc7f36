import keyring
import keyring.errors
print(type(keyring.get_keyring()).__module__, type(keyring.get_keyring()).__name__)
try:
    print("get_password ->", keyring.get_password("svc", "user"))
except keyring.errors.KeyringError as e:
    print("raised", type(e).__name__)
try:
    keyring.set_password("svc", "user", "pw"); print("set_password ok")
except keyring.errors.KeyringError as e:
    print("raised", type(e).__name__)
