import defusedxml.ElementTree as DET
print(DET.fromstring("<a><b>1</b></a>").find("b").text)
