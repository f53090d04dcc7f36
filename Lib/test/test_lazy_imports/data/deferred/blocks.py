# Imports in module-level if, for, while and match blocks are module level.
if True:
    import target as in_if
for _ in range(1):
    import target as in_for
while True:
    import target as in_while
    break
match 1:
    case 1:
        import target as in_match
print("bound")
print(in_if.value, in_for.value, in_while.value, in_match.value)
