from joblib import Parallel, delayed
print(Parallel(n_jobs=2)(delayed(abs)(-i) for i in range(4)))
