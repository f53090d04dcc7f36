attempts = 0
