from sklearn.experimental import enable_iterative_imputer  # noqa: F401
from sklearn.impute import IterativeImputer
print(IterativeImputer(random_state=0).fit_transform([[1, 2], [float("nan"), 3], [7, 6]]).round(3).tolist())
