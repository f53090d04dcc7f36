print("exec", __name__)
from .__version__ import __version__
