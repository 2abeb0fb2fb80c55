# Derive MD2's S-box from the digits of pi (the construction RFC 1319's
# "random permutation based on the digits of pi" refers to), then check MD2.
def pi_digits(n):
    # Machin: pi = 16 atan(1/5) - 4 atan(1/239), fixed point with guard digits
    scale = 10 ** (n + 10)
    def atan_inv(x):
        total, term, k, sign = 0, scale // x, 1, 1
        x2 = x * x
        while term:
            total += sign * (term // k)
            term //= x2; k += 2; sign = -sign
        return total
    pi = 16 * atan_inv(5) - 4 * atan_inv(239)
    return str(pi)[:n]
D = pi_digits(3000)
pos = 0
def digit():
    global pos
    d = int(D[pos]); pos += 1; return d
def rand(n):
    while True:
        x, y = digit(), 10
        if n > 10: x, y = x * 10 + digit(), 100
        if n > 100: x, y = x * 10 + digit(), 1000
        if x < n * (y // n): return x % n
S = list(range(256))
for i in range(2, 257):
    j = rand(i)
    S[j], S[i - 1] = S[i - 1], S[j]
print(hex(S[0]), hex(S[1]), hex(S[255]))
def md2(m):
    pad = 16 - len(m) % 16
    m = m + bytes([pad]) * pad
    C = [0] * 16; L = 0
    for i in range(0, len(m), 16):
        for j in range(16):
            C[j] ^= S[m[i + j] ^ L]; L = C[j]
    m = m + bytes(C)
    X = [0] * 48
    for i in range(0, len(m), 16):
        for j in range(16):
            X[16 + j] = m[i + j]; X[32 + j] = X[16 + j] ^ X[j]
        t = 0
        for j in range(18):
            for k in range(48):
                X[k] ^= S[t]; t = X[k]
            t = (t + j) % 256
    return bytes(X[:16]).hex()
print(md2(b""), md2(b"abc"), md2(b"message digest"))
open('/tmp/md2sbox.txt','w').write(' '.join('%d' % v for v in S))
