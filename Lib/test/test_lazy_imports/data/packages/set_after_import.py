# setter sets its attribute a after `import setter.a.b`; an eager import of
# setter.a reaches the package first.
try:
    import setter.a
finally:
    pass
print(setter.a)
