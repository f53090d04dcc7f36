import sentry_sdk
sentry_sdk.init(dsn="https://k@o.ingest.sentry.io/1", default_integrations=False, integrations=[__import__("sentry_sdk.integrations.unraisablehook", fromlist=["x"]).UnraisablehookIntegration()])
class Bad:
    def __del__(self):
        raise ValueError("unraisable in __del__")
BAD = Bad()   # finalized at interpreter shutdown
print("ok")
