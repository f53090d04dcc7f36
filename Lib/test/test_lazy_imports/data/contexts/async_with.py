# async with is a with statement: run as top-level await code.
import ast
import asyncio
import contextlib

code = compile("async with contextlib.AsyncExitStack():\n"
               "    import target\n",
               "<top-level await>", "exec",
               flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
asyncio.run(eval(code, {"contextlib": contextlib}))
print("bound")
