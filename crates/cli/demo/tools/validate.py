import csv, re, sys, datetime as dt
from decimal import Decimal as D
from collections import defaultdict
DIR = sys.argv[1]
NUM = re.compile(r'^[+-]?[0-9]+(\.[0-9]+)?$')
errs = []
def chk(c, where):
    if not NUM.match(c): errs.append(f'bad decimal {c!r} at {where}')
def rows(fn, skip=0):
    with open(f'{DIR}/{fn}', newline='') as f:
        recs = list(csv.reader(f))
    return recs
# Kraken
recs = rows('kraken-ledgers.csv'); h = recs[0]; body = recs[1:]
assert h == ['txid','refid','time','type','subtype','aclass','subclass','asset','wallet','amount','fee','balance']
bal = {}; groups = defaultdict(list); txids = set()
for n, r in enumerate(body, 2):
    assert len(r) == 12, n
    for c in (9, 10, 11): chk(r[c], f'kraken:{n}')
    dt.datetime.strptime(r[2], '%Y-%m-%d %H:%M:%S')
    assert r[0] not in txids; txids.add(r[0])
    assert D(r[10]) >= 0
    k = (r[7], r[8])
    if k in bal and bal[k] + D(r[9]) - D(r[10]) != D(r[11]): errs.append(f'kraken balance line {n}')
    bal[k] = D(r[11])
    if r[3] in ('trade', 'earn') and r[4] in ('tradespot', 'allocation'): groups[r[1]].append(r)
    assert r[5] == 'currency'
for ref, g in groups.items():
    assert len(g) == 2 and len({x[2] for x in g}) == 1, ref
    assert sorted(D(x[9]) > 0 for x in g) == [False, True], ref
print('kraken rows', len(body), 'groups', len(groups))
# Bitvavo
recs = rows('bitvavo.csv'); h = recs[0]
assert h == 'Timezone,Date,Time,Type,Currency,Amount,Quote Currency,Quote Price,Received / Paid Currency,Received / Paid Amount,Fee currency,Fee amount,Status,Transaction ID,Address'.split(',')
ids = set()
for n, r in enumerate(recs[1:], 2):
    assert len(r) == 15
    dt.date.fromisoformat(r[1]); assert re.match(r'^\d\d:\d\d:\d\d(\.\d+)?$', r[2])
    for c in (5, 7, 9, 11):
        if r[c]: chk(r[c], f'bitvavo:{n}:{c+1}')
    assert (r[10] == '') == (r[11] == '')
    typ = r[3]; amt = D(r[5])
    sign = {'buy': 1, 'sell': -1, 'deposit': 1, 'withdrawal': -1, 'staking': 1}[typ]
    assert amt * sign > 0, n
    assert (r[13], typ) not in ids; ids.add((r[13], typ))
    if typ in ('buy', 'sell'):
        exp = abs(amt) * D(r[7]) + (D(r[11]) if typ == 'buy' else -D(r[11]))
        if abs(exp - abs(D(r[9]))) > D('0.01'): errs.append(f'bitvavo total-mismatch {n}: {exp} vs {r[9]}')
print('bitvavo rows', len(recs) - 1)
# Binance
recs = rows('binance-statement.csv'); h = recs[0]
assert h == ['User_ID','UTC_Time','Account','Operation','Coin','Change','Remark']
tg = defaultdict(set)
for n, r in enumerate(recs[1:], 2):
    assert len(r) == 7; chk(r[5], f'binance:{n}'); dt.datetime.strptime(r[1], '%Y-%m-%d %H:%M:%S')
    if r[3] in ('Transaction Spend', 'Transaction Buy', 'Buy'): tg[(r[2], r[1])].add('B')
    if r[3] in ('Transaction Sold', 'Transaction Revenue', 'Sell'): tg[(r[2], r[1])].add('S')
    if r[3] in ('Transaction Fee', 'Fee'): assert D(r[5]) < 0
for k, v in tg.items(): assert len(v) == 1, k
print('binance rows', len(recs) - 1)
# Coinbase
recs = rows('coinbase.csv'); hi = [i for i, r in enumerate(recs) if r and r[0] == 'ID'][0]
assert hi == 3, hi  # header on line 4 (line 1 empty)
MON = re.compile(r'^[+-]?([A-Z]{0,3}[$€£¥])?[+-]?([0-9]+|[0-9]{1,3}(,[0-9]{3})+)(\.[0-9]+)?$')
def mon(c): return D(re.sub(r'[^0-9.\-]', '', c))
for n, r in enumerate(recs[hi + 1:], hi + 2):
    assert len(r) == 11, n
    for c in (6, 7, 8, 9):
        if not MON.match(r[c]): errs.append(f'coinbase money {r[c]!r} line {n}')
    dt.datetime.strptime(r[1], '%Y-%m-%d %H:%M:%S UTC')
    chk(r[4], f'coinbase:{n}')
    if r[2] == 'Buy':
        m = re.match(r'^Bought ([0-9.,]+) ([A-Z0-9]+) for [$€£¥]?([0-9.,]+) ([A-Z0-9]+)', r[10])
        assert m and D(m.group(1)) == abs(D(r[4])) and m.group(2) == r[3], n
        assert mon(r[7]) + mon(r[9]) == mon(r[8]) == D(m.group(3).replace(',', '')), n
print('coinbase rows', len(recs) - hi - 1)
# generic
recs = rows('ledger-wallet.csv')
assert recs[0] == 'timestamp,type,account,in_asset,in_amount,out_asset,out_amount,fee_asset,fee_amount,fiat_value,fiat_currency,id,group_id,note'.split(',')
for n, r in enumerate(recs[1:], 2):
    assert len(r) == 14
    dt.datetime.fromisoformat(r[0].replace('Z', '+00:00'))
    for c in (4, 6, 8, 9):
        if r[c]: chk(r[c], f'generic:{n}'); assert not r[c].startswith('-')
print('generic rows', len(recs) - 1)
# prices: every day, every asset held
recs = rows('prices-daily.csv'); assert recs[0] == ['date', 'symbol', 'close', 'currency']
have = defaultdict(set); keys = set()
for n, r in enumerate(recs[1:], 2):
    chk(r[2], f'prices:{n}'); assert D(r[2]) > 0; d = dt.date.fromisoformat(r[0]); have[r[1]].add(d)
    assert (r[0], r[1], r[3]) not in keys; keys.add((r[0], r[1], r[3]))
def days(a, b):
    d = a
    while d <= b: yield d; d += dt.timedelta(days=1)
for s in ('BTC', 'ETH', 'DOT'): assert set(days(dt.date(2022, 1, 1), dt.date(2024, 12, 31))) <= have[s], s
assert set(days(dt.date(2023, 3, 23), dt.date(2024, 12, 31))) <= have['ARB']
print('price rows', len(recs) - 1)
recs = rows('ecb-rates.csv'); assert recs[0] == ['Date', 'USD', 'JPY', 'GBP', 'CHF', '']
for n, r in enumerate(recs[1:], 2):
    assert len(r) == 6 and r[5] == ''; dt.date.fromisoformat(r[0])
    for c in r[1:5]:
        if c != 'N/A': chk(c, f'ecb:{n}')
print('ecb rows', len(recs) - 1, recs[-1][0], recs[1][0])
print('ERRORS' if errs else 'OK', errs)
