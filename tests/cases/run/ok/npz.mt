# load of an .npz archive is an NpzFile: files, d["name"] (stored members read in place, deflated ones inflated whole, Fortran order, 0-d, empty); savez writes one (here into target/)
import mars.tensor as mt
d = mt.load("tests/cases/lower/data/npz_stored.npz")
print(d)
print(d.files)
a = d["arr_0"]
print(a * 2, a.sum(axis=1), d["flags"], d["f.npy"], d["f"].T.sum(axis=1), d["s"] + 1, d["e"].shape)
z = mt.load("tests/cases/lower/data/npz_deflated.npz")
print(z, z["x"].sum(), z["x"][995:], z["y"])
mt.savez("target/run_case_npz", a, mt.arange(10, chunks=3) % 4 == 0, w=z["x"].reshape(10, 100)[:, ::7])
mt.savez("target/run_case_npz_b.npz", only=mt.float32(2.5))
