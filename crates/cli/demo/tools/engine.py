import json, datetime as dt, csv, sys, os
from decimal import Decimal as D, ROUND_HALF_UP
from collections import defaultdict
OUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
def r2(x): return x.quantize(D('0.01'), rounding=ROUND_HALF_UP)
FIAT = {'EUR', 'USD', 'GBP', 'JPY', 'CHF'}
PRICES = defaultdict(dict)
for row in csv.DictReader(open(f'{OUT}/prices-daily.csv')):
    PRICES[(row['symbol'], dt.date.fromisoformat(row['date']))][row['currency']] = D(row['close'])
RATES = {}
with open(f'{OUT}/ecb-rates.csv') as f:
    rd = csv.reader(f); h = next(rd)
    for row in rd: RATES[dt.date.fromisoformat(row[0])] = D(row[1])
def rate(d):
    k = d
    while k not in RATES: k -= dt.timedelta(days=1)
    return RATES[k], k
def last_sunday(y, mo):
    d = dt.date(y, mo, 31)
    while d.weekday() != 6: d -= dt.timedelta(days=1)
    return d
def fdate(ts):
    a = dt.datetime.combine(last_sunday(ts.year, 3), dt.time(1)); b = dt.datetime.combine(last_sunday(ts.year, 10), dt.time(1))
    return (ts + dt.timedelta(hours=2 if a <= ts < b else 1)).date()
def market(asset, qty, d, detail=None):
    for k in range(8):
        dd = d - dt.timedelta(days=k)
        c = PRICES.get((asset, dd))
        if not c: continue
        if 'EUR' in c:
            v = r2(qty * c['EUR'])
            if detail is not None: detail.append(f'{qty} x {c["EUR"]} EUR ({dd}) = {qty*c["EUR"]} -> {v}')
            return v
        if 'USD' in c:
            rt, rd_ = rate(d)
            v = r2(qty * c['USD'] / rt)
            if detail is not None: detail.append(f'{qty} x {c["USD"]} USD ({dd}) / {rt} (ECB {rd_}) = {qty*c["USD"]/rt} -> {v}')
            return v
    raise Exception(('missing price', asset, d))
def to_eur(v, cur, d, detail=None):
    if cur == 'EUR': return r2(v)
    rt, rd_ = rate(d); x = r2(v / rt)
    if detail is not None: detail.append(f'{v} {cur} / {rt} (ECB {rd_}) = {v/rt} -> {x}')
    return x

txs = json.load(open(os.path.join(os.environ.get('TMPDIR', '/tmp'), 'cartera-demo-txs.json')))
for i, t in enumerate(txs):
    t['ts'] = dt.datetime.fromisoformat(t['ts']); t['seq'] = i
    for k in ('inn', 'out', 'fee'):
        if t[k]: t[k] = (t[k][0], D(t[k][1]))
    if t['stated']: t['stated'] = (D(t['stated'][0]), t['stated'][1])
    t['fd'] = fdate(t['ts'])
txs.sort(key=lambda t: (t['ts'], t['seq']))
# names for the README
cnt = defaultdict(int)
lots = defaultdict(list)  # asset -> list of lots (queue order = creation order, since instants processed in order)
slices = []; receipts = []; lotlist = []
def open_lot(asset, qty, value, t, how):
    lot = dict(id=f'{t["acct"]}/{t["type"]}/{t["fd"]}', asset=asset, q0=qty, rem=qty, cost=value, rc=value, acq=t['fd'], how=how)
    lots[asset].append(lot); lotlist.append(lot); return lot
def consume(asset, Q, G, X, t, leg, optype, note):
    out = []; Qrem = Q
    for lot in lots[asset]:
        if Qrem == 0: break
        if lot['rem'] == 0: continue
        q = min(lot['rem'], Qrem)
        a = lot['rc'] if q == lot['rem'] else r2(lot['rc'] * q / lot['rem'])
        out.append(dict(lot=lot, q=q, acqv=a, rem_before=lot['rem'], rc_before=lot['rc']))
        lot['rem'] -= q; lot['rc'] -= a; Qrem -= q
    assert Qrem == 0, ('uncovered', asset, t)
    Gr, Xr, Qr = G, X, Q
    for i, s in enumerate(out):
        if i == len(out) - 1: s['g'], s['x'] = Gr, Xr
        else:
            s['g'] = r2(Gr * s['q'] / Qr); s['x'] = r2(Xr * s['q'] / Qr)
        Gr -= s['g']; Xr -= s['x']; Qr -= s['q']
        s.update(asset=asset, fd=t['fd'], ts=t['ts'], leg=leg, optype=optype, acct=t['acct'], note=note,
                 net=s['g'] - s['x'], res=s['g'] - s['x'] - s['acqv'])
        slices.append(s)
VAL = {}
def value_tx(t):
    d = t['fd']; det = []; typ = t['type']; v = {}
    fee = t['fee']
    if fee and fee[1] != 0:
        if fee[0] in FIAT: v['fee'] = to_eur(fee[1], fee[0], d, det); v['fee_fiat'] = True
        else: v['fee'] = market(fee[0], fee[1], d, det); v['fee_fiat'] = False
    if typ == 'BUY':
        v['cons'] = to_eur(t['out'][1], t['out'][0], d, det)
    elif typ == 'SELL':
        v['cons'] = to_eur(t['inn'][1], t['inn'][0], d, det)
    elif typ == 'SWAP':
        if t['stated']:
            v['given'] = v['recv'] = to_eur(*t['stated'], d, det)
        else:
            v['given'] = market(t['out'][0], t['out'][1], d, det); v['recv'] = market(t['inn'][0], t['inn'][1], d, det)
        v['tv'] = max(v['given'], v['recv'])
    elif typ in ('STAKING', 'REWARD', 'AIRDROP', 'PROMOTION'):
        v['cons'] = to_eur(*t['stated'], d, det) if t['stated'] else market(t['inn'][0], t['inn'][1], d, det)
    v['detail'] = det
    return v
i = 0
while i < len(txs):
    j = i
    while j < len(txs) and txs[j]['ts'] == txs[i]['ts']: j += 1
    group = txs[i:j]
    for t in group: VAL[t['seq']] = value_tx(t)
    for t in group:  # phase A
        v = VAL[t['seq']]; typ = t['type']
        if typ == 'BUY':
            v['lotv'] = v['cons'] + v.get('fee', D(0))
            t['lot'] = open_lot(t['inn'][0], t['inn'][1], v['lotv'], t, 'buy')
        elif typ == 'SWAP':
            t['lot'] = open_lot(t['inn'][0], t['inn'][1], v['tv'], t, 'swap')
        elif typ in ('STAKING', 'REWARD', 'AIRDROP', 'PROMOTION'):
            t['lot'] = open_lot(t['inn'][0], t['inn'][1], v['cons'], t, 'income')
            receipts.append(dict(t=t, value=v['cons'], bucket='RCM' if typ in ('STAKING', 'REWARD') else 'GENERAL_GP', det=v['detail']))
    for t in group:  # phase B
        v = VAL[t['seq']]; typ = t['type']; fee = t['fee']
        cryptofee = fee and fee[1] != 0 and fee[0] not in FIAT
        fx = v.get('fee', D(0)) if typ in ('SELL', 'SWAP', 'SPEND') else D(0)
        if typ == 'SELL': consume(t['out'][0], t['out'][1], v['cons'], fx, t, 'P', 'SELL', '')
        if typ == 'SWAP': consume(t['out'][0], t['out'][1], v['tv'], fx, t, 'P', 'SWAP', '')
        if cryptofee: consume(fee[0], fee[1], v['fee'], D(0), t, 'F', 'FEE', typ)
    i = j
# IRPF
SCALE = {2022: [(6000, '0.19'), (50000, '0.21'), (200000, '0.23'), (None, '0.26')],
         2023: [(6000, '0.19'), (50000, '0.21'), (200000, '0.23'), (300000, '0.27'), (None, '0.28')],
         2024: [(6000, '0.19'), (50000, '0.21'), (200000, '0.23'), (300000, '0.27'), (None, '0.28')]}
def tax(base, y):
    tot = D(0); lo = D(0); br = []
    for up, rt in SCALE[y]:
        hi = base if up is None else min(base, D(up))
        if hi > lo:
            tot += (hi - lo) * D(rt); br.append((lo, hi, rt, (hi - lo) * D(rt)))
        if up is None or base <= D(up): break
        lo = D(up)
    return r2(tot), br
items = []  # dict(origin, kind, rem)
p = D('0.25')
report = {}
for Y in (2022, 2023, 2024):
    ys = [s for s in slices if s['fd'].year == Y]
    Tsav = sum((s['res'] for s in ys), D(0)); R = sum((r['value'] for r in receipts if r['t']['fd'].year == Y and r['bucket'] == 'RCM'), D(0))
    A = sum((r['value'] for r in receipts if r['t']['fd'].year == Y and r['bucket'] == 'GENERAL_GP'), D(0))
    G = A
    gains = sum((s['res'] for s in ys if s['res'] > 0), D(0)); losses = -sum((s['res'] for s in ys if s['res'] < 0), D(0))
    T0, R0 = Tsav, R
    Rp, Tp = max(R, D(0)), max(Tsav, D(0)); c = D(0); c1 = c2 = D(0)
    if Tsav < 0 and R > 0:
        c = min(-Tsav, r2(p * Rp)); Tsav += c; R -= c; c1 = c
    elif R < 0 and Tsav > 0:
        c = min(-R, r2(p * Tp)); R += c; Tsav -= c; c2 = c
    new = []
    if Tsav < 0: new.append(dict(origin=Y, kind='SAVINGS_GP', rem=-Tsav)); Tsav = D(0)
    if R < 0: new.append(dict(origin=Y, kind='SAVINGS_RCM', rem=-R)); R = D(0)
    used = []
    usable = sorted([it for it in items if Y - 4 <= it['origin'] < Y and it['rem'] > 0], key=lambda it: (it['origin'], ['SAVINGS_GP', 'SAVINGS_RCM', 'GENERAL_GP'].index(it['kind'])))
    for it in usable:
        if it['kind'] == 'SAVINGS_GP':
            u = min(it['rem'], Tsav); 
            if u > 0: it['rem'] -= u; Tsav -= u; used.append((it['origin'], it['kind'], 'SAME', u))
    room1 = r2(p * Rp) - c1
    for it in usable:
        if it['kind'] == 'SAVINGS_GP' and it['origin'] >= 2015:
            u = min(it['rem'], R, room1)
            if u > 0: it['rem'] -= u; R -= u; room1 -= u; used.append((it['origin'], it['kind'], 'CROSS', u))
    items += new
    base = Tsav + R
    t_, br = tax(base, Y)
    remaining = sum((it['rem'] for it in items if it['origin'] >= Y - 3), D(0))
    report[Y] = dict(capital_gains=gains, capital_losses=losses, savings_base_yields=R0, general_base_airdrops=A,
                     net=gains - losses, estimated_irpf=t_, T_sav=T0, T_gen=D(0), c=c, cf_used=sum((u[3] for u in used), D(0)),
                     base=base, general_after=G, cf_generated=sum((n['rem'] for n in new), D(0)), cf_remaining=remaining,
                     cf_expired=D(0), M=D(0), used=used, new=[(n['origin'], n['kind'], n['rem']) for n in new], brackets=br,
                     Tsav_after=Tsav, R_after=R)

if __name__ == '__main__':
    for Y, r in report.items():
        print('=====', Y)
        for k, v in r.items(): print(' ', k, v)
    print('===== slices')
    for s in slices:
        L = s['lot']
        print(s['fd'], s['acct'], s['optype'], s['leg'], s['note'], s['asset'], s['q'], 'lot', L['id'], L['q0'], 'cost', L['cost'], 'rem_before', s['rem_before'], s['rc_before'], '| acq', s['acqv'], 'g', s['g'], 'x', s['x'], 'net', s['net'], 'res', s['res'])
    print('===== receipts')
    for r in receipts:
        print(r['t']['fd'], r['t']['acct'], r['t']['type'], r['t']['inn'], r['value'], r['det'])
    print('===== valuations')
    for t in txs:
        v = VAL[t['seq']]
        if t['type'] in ('BUY', 'SELL', 'SWAP') or v.get('fee'):
            print(t['fd'], t['acct'], t['type'], t['inn'], t['out'], t['fee'], t['stated'], {k: x for k, x in v.items() if k != 'detail'}, v['detail'])
    print('===== lots at end')
    for l in lotlist:
        print(l['id'], l['asset'], l['q0'], l['cost'], 'rem', l['rem'], l['rc'])
