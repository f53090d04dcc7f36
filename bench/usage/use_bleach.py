import bleach
print(bleach.clean("<script>x</script><b onclick='y'>b</b>", tags={"b"}))
print(bleach.linkify("see http://example.com"))
