#!/usr/bin/env python3
"""Refreshes server/data/disposable-domains.txt from the newest PyPI release of
disposable-email-domains (the fraud signal `disposable_address`, `domain::fraud`)."""
import pathlib
import subprocess
import sys
import tempfile
import zipfile

root = pathlib.Path(__file__).resolve().parent.parent
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([sys.executable, '-m', 'pip', 'download', '--no-deps', '--dest', tmp, 'disposable-email-domains'], check=True)
    wheel = next(pathlib.Path(tmp).glob('disposable_email_domains-*.whl'))
    namespace = {}
    with zipfile.ZipFile(wheel) as z:
        exec(z.read('disposable_email_domains/__init__.py').decode(), namespace)
    domains = sorted(d.strip().lower() for d in namespace['blocklist'] if d.strip())
    (root / 'server/data/disposable-domains.txt').write_text('\n'.join(domains) + '\n')
    print(f'{len(domains)} domains from {wheel.name}')
