from sympy.stats import Normal, E
Z = Normal("Z", 0, 1)
print(E(Z**2))
