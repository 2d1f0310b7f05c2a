/** pytest failures (`python3 -m pytest`, default output). */
import type { ErrorKind, Names } from './kind.js';

const test = (n: Names, text: string, module?: string) => ({
  [`tests/test_${n.pyModule}.py`]: text,
  ...(module === undefined ? {} : { [`${n.pyModule}.py`]: module }),
});

export const PYTEST_KINDS: ErrorKind[] = [
  {
    id: 'pytest-assert-equal',
    tool: 'pytest',
    title: 'pytest assert a == b failed: the computed value differs from the expected one',
    body: 'Read the assertion introspection (left is the actual value): fix the function under test, or use pytest.approx for floats.',
    tags: ['pytest', 'python', 'testing', 'assertions'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      test(
        n,
        `def ${n.pyFn}(amount):\n    return amount * 2\n\n\ndef test_${n.pyFn}():\n    assert ${n.pyFn}(3) == 7\n`,
      ),
  },
  {
    id: 'pytest-module-not-found',
    tool: 'pytest',
    title: 'ModuleNotFoundError: No module named X while pytest imports the test module',
    body: 'Install the package in the project environment (add it to pyproject dependencies), or make the project importable: a package __init__.py, pythonpath in [tool.pytest.ini_options], or an editable install.',
    tags: ['pytest', 'python', 'imports', 'dependencies'],
    instances: 3,
    files: (n) =>
      test(n, `import ${n.pyModule}_sdk\n\n\ndef test_import():\n    assert ${n.pyModule}_sdk\n`),
  },
  {
    id: 'pytest-fixture-not-found',
    tool: 'pytest',
    title: "pytest: fixture 'name' not found",
    body: 'Define the fixture with @pytest.fixture in the test module or a conftest.py the test can see, or fix the parameter name; pytest lists the available fixtures.',
    tags: ['pytest', 'python', 'testing', 'fixtures'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      test(n, `def test_${n.pyFn}(${n.pyModule}_db):\n    assert ${n.pyModule}_db is not None\n`),
  },
  {
    id: 'pytest-name-error',
    tool: 'pytest',
    title: "NameError: name 'x' is not defined in Python code under test",
    body: 'Import the name (from module import name) or define it before use; check the spelling and that it is not defined only inside another function.',
    tags: ['pytest', 'python', 'imports'],
    instances: 3,
    files: (n) => test(n, `def test_${n.pyFn}():\n    assert ${n.pyFn}(2) == 4\n`),
  },
  {
    id: 'pytest-missing-positional-argument',
    tool: 'pytest',
    title: 'TypeError: f() missing 1 required positional argument',
    body: 'Pass every required argument at the call, or give the parameter a default value when callers may leave it out.',
    tags: ['pytest', 'python', 'functions'],
    instances: 3,
    files: (n) =>
      test(
        n,
        `def ${n.pyFn}(amount, rate):\n    return amount * rate\n\n\ndef test_${n.pyFn}():\n    assert ${n.pyFn}(10) == 12\n`,
      ),
  },
  {
    id: 'pytest-key-error',
    tool: 'pytest',
    title: "KeyError: 'key' reading a dict that lacks the key",
    body: 'Use dict.get(key, default) when the key may be absent, or make sure the producer sets it; validate input dicts at the boundary (pydantic, a dataclass).',
    tags: ['pytest', 'python', 'dicts'],
    category: 'bugfix',
    instances: 3,
    files: (n) =>
      test(
        n,
        `def test_${n.pyField}():\n    record = {"id": 1}\n    assert record["${n.pyField}"] == "x"\n`,
      ),
  },
  {
    id: 'pytest-nonetype-attribute',
    tool: 'pytest',
    title:
      "AttributeError: 'NoneType' object has no attribute: using the result of a lookup that returned None",
    body: 'Check for None before using the value (if x is None: ...), or fix the function that returns None on a path where it should return an object (a missing return).',
    tags: ['pytest', 'python', 'null-safety'],
    category: 'bugfix',
    instances: 3,
    files: (n) =>
      test(
        n,
        `def find(items, key):\n    for item in items:\n        if item == key:\n            return item\n\n\ndef test_${n.pyField}():\n    assert find([], "a").${n.pyField} == "x"\n`,
      ),
  },
  {
    id: 'pytest-zero-division',
    tool: 'pytest',
    title: 'ZeroDivisionError: division by zero on an empty list or zero count',
    body: 'Guard the empty case before dividing (return 0 or None, or raise a clear ValueError), e.g. averages over an empty list.',
    tags: ['pytest', 'python', 'arithmetic'],
    category: 'bugfix',
    instances: 2,
    files: (n) =>
      test(
        n,
        `def average(values):\n    return sum(values) / len(values)\n\n\ndef test_${n.pyFn}():\n    assert average([]) == 0\n`,
      ),
  },
  {
    id: 'pytest-did-not-raise',
    tool: 'pytest',
    title: 'pytest.raises Failed: DID NOT RAISE the expected exception',
    body: 'Make the code raise the exception on the invalid input (validate and raise ValueError), and call the code inside the with pytest.raises block.',
    tags: ['pytest', 'python', 'testing', 'exceptions', 'validation'],
    category: 'testing',
    instances: 3,
    files: (n) =>
      test(
        n,
        `import pytest\n\n\ndef ${n.pyFn}(text):\n    return text.strip()\n\n\ndef test_${n.pyFn}_rejects_empty():\n    with pytest.raises(ValueError):\n        ${n.pyFn}("")\n`,
      ),
  },
  {
    id: 'pytest-indentation-error',
    tool: 'pytest',
    title: 'IndentationError: expected an indented block (the test module does not parse)',
    body: 'Indent the body of the def, if, for or with the error points after (4 spaces), or add pass for an intentionally empty block; mixed tabs and spaces cause it too.',
    tags: ['pytest', 'python', 'syntax'],
    instances: 2,
    files: (n) => test(n, `def test_${n.pyFn}():\nassert True\n`),
  },
  {
    id: 'pytest-cannot-import-name',
    tool: 'pytest',
    title: "ImportError: cannot import name 'x' from module (it does not define it)",
    body: 'Define or export the name in the module, fix the name imported, or break the circular import that leaves the module half-initialised.',
    tags: ['pytest', 'python', 'imports'],
    instances: 3,
    files: (n) =>
      test(
        n,
        `from ${n.pyModule} import ${n.pyFn}\n\n\ndef test_${n.pyFn}():\n    assert ${n.pyFn}\n`,
        `def other():\n    return 1\n`,
      ),
  },
  {
    id: 'pytest-unsupported-operand',
    tool: 'pytest',
    title: "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
    body: 'Convert the operands to one type before the operation (int(text), str(n)); values read from input or JSON are often strings.',
    tags: ['pytest', 'python', 'types'],
    category: 'bugfix',
    instances: 2,
    files: (n) =>
      test(n, `def test_${n.pyField}():\n    total = 1 + "${n.pyField}"\n    assert total\n`),
  },
];
