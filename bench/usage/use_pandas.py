import pandas as pd
print(pd.DataFrame({"a": [1, 2]}))
