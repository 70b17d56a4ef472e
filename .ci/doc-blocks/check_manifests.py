#!/usr/bin/env python3
"""Checks the Package.swift fragments of the docs (blocks marked `<!-- doc: manifest -->`): each,
put in a manifest of its own, must evaluate (`swift package dump-package`), and every product it
takes from this package must be one this package declares."""

import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def declared_products():
    dumped = subprocess.run(
        ["swift", "package", "--package-path", str(ROOT), "dump-package"],
        check=True, capture_output=True, text=True,
    ).stdout
    return {product["name"] for product in json.loads(dumped)["products"]}


def main():
    fragments = json.loads(pathlib.Path(sys.argv[1]).read_text())
    products = declared_products()
    failures = []
    for fragment in fragments:
        with tempfile.TemporaryDirectory() as directory:
            manifest = pathlib.Path(directory) / "Package.swift"
            manifest.write_text(
                "// swift-tools-version: 6.2\nimport PackageDescription\n\nlet package = Package(\n"
                '  name: "MyApp",\n' + "\n".join(fragment["body"]) + "\n)\n"
            )
            result = subprocess.run(
                ["swift", "package", "--package-path", directory, "dump-package"],
                capture_output=True, text=True,
            )
            if result.returncode != 0:
                failures.append(f"{fragment['source']}: the manifest fragment does not evaluate:\n{result.stderr}")
                continue
            for target in json.loads(result.stdout)["targets"]:
                for dependency in target["dependencies"]:
                    product = dependency.get("product")
                    if product and product[0] in products and product[1] != "swift-effects":
                        failures.append(
                            f"{fragment['source']}: target {target['name']} takes {product[0]!r} from the package "
                            f"{product[1]!r}; this package is named 'swift-effects'"
                        )
                    if product and product[1] == "swift-effects" and product[0] not in products:
                        failures.append(
                            f"{fragment['source']}: target {target['name']} takes the product {product[0]!r}, "
                            f"which this package does not declare (it declares {', '.join(sorted(products))})"
                        )
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"{len(fragments)} manifest fragments evaluate, and take only declared products")


if __name__ == "__main__":
    main()
