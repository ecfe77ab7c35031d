"""Cold debug builds of the one-entity service crate, lean and with the
tooling, one after the other: crates compiled, CPU time (user + system of
the child cargo and its compilers) and wall time. BENCHMARKS.md, "Lean
runtime". Run from anywhere: python3 stamp-benches/service-crate/build_times.py"""
import os, resource, shutil, subprocess, tempfile, time

os.chdir(os.path.dirname(os.path.abspath(__file__)))
for mode in ['lean','tooling']:
    d=os.path.join(tempfile.gettempdir(), 'stamp-service-crate-'+mode); shutil.rmtree(d, ignore_errors=True)
    args=['cargo','build','--target-dir',d]+(['--features','tooling'] if mode=='tooling' else [])
    r0=resource.getrusage(resource.RUSAGE_CHILDREN); t0=time.time()
    out=subprocess.run(args,capture_output=True,text=True)
    t1=time.time(); r1=resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu=(r1.ru_utime-r0.ru_utime)+(r1.ru_stime-r0.ru_stime)
    print(f"{mode}: wall {t1-t0:.0f} s, cpu {cpu:.0f} s, crates {out.stderr.count('Compiling')}, ok={out.returncode==0}", flush=True)
