/**
 * Real words written for one another (engine/rules/confusable.ts): each pair is decided by its context, and the
 * same words in other contexts are left alone. All sentences are written for these tests.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { check, loadEngine } from '../../engine/index';
import { apply, expectWellFormed } from './helpers';

beforeAll(() => {
  loadEngine();
});

describe('confusable real words', () => {
  it.each([
    ['截止本月十日，报名人数已超过三千人。', '截至本月十日，报名人数已超过三千人。'],
    ['他的新书一上市就收到了读者的热烈欢迎。', '他的新书一上市就受到了读者的热烈欢迎。'],
    ['工人们都带着安全帽，在工地上忙碌。', '工人们都戴着安全帽，在工地上忙碌。'],
    ['上岗前请佩带好工牌。', '上岗前请佩戴好工牌。'],
    ['本店现发布招租启示，有意者请来电。', '本店现发布招租启事，有意者请来电。'],
    ['考察对象名单将在网上公式七天。', '考察对象名单将在网上公示七天。'],
    ['请用手机扫码登陆系统后再提交申请。', '请用手机扫码登录系统后再提交申请。'],
    ['新生产线的设备调式工作已经结束。', '新生产线的设备调试工作已经结束。'],
    ['团队用两周时间做出了软件原形。', '团队用两周时间做出了软件原型。'],
    ['铁块在高温下慢慢溶化成铁水。', '铁块在高温下慢慢熔化成铁水。'],
    ['所有人员必需按规定登记。', '所有人员必须按规定登记。'],
    ['发现故障后请即使报告值班室。', '发现故障后请及时报告值班室。'],
    ['承蒙关照，不甚荣幸。', '承蒙关照，不胜荣幸。'],
    ['许多家长反应，学校门口的交通秩序混乱。', '许多家长反映，学校门口的交通秩序混乱。'],
    ['劳动者依法享有休息休假的权力。', '劳动者依法享有休息休假的权利。'],
    ['要严防权利寻租，确保权力在阳光下运行。', '要严防权力寻租，确保权力在阳光下运行。'],
    ['遇到难题时，他总能出个好注意。', '遇到难题时，他总能出个好主意。'],
    ['当前防汛形式严峻，各地要提高警惕。', '当前防汛形势严峻，各地要提高警惕。'],
    ['请按说明书配制服务器参数。', '请按说明书配置服务器参数。'],
  ])('%s', (text, right) => {
    const issues = check(text);
    expectWellFormed(text, issues);
    const mine = issues.filter((i) => i.category === '0');
    expect(apply(text, mine)).toBe(right);
    // the differing characters only, with the reason
    for (const i of mine) {
      expect(i.end - i.start).toBeLessThanOrEqual(2);
      expect(i.message).toMatch(/^“.+”应为“.+”：.+。$/);
    }
  });
  it.each([
    '那位老人带着一副老花眼镜，正在看报纸。',
    '报名截止日期为本月十日。',
    '报名将于本月十日截止。',
    '截止到目前，还没有人报名。',
    '我今天收到了你的来信。',
    '他出门时带着一副眼镜备用，以防万一。',
    '他随身携带着口罩。',
    '这件事给了我们很大的启示。',
    '这个数学公式很难推导。',
    '台风将于今晚在沿海登陆。',
    '这首曲子采用了五声调式。',
    '他终于现出了原形。',
    '冰雪在阳光下慢慢溶化了。',
    '氧气是人类生存必需的。',
    '食盐是生活必需品。',
    '即使下雨，比赛也照常进行。',
    '即使发货晚了一天，客户也没有抱怨。',
    '这个问题不甚清楚。',
    '这种药物的不良反应较少。',
    '学生对新课程的反应，普遍比较积极。',
    '这是法律赋予公民的权利。',
    '国家权力属于人民。',
    '过马路时要注意，不要闯红灯。',
    '你要好好注意身体。',
    '他发誓要报复那些欺负他的人。',
    '活动形式多样，内容丰富。',
    '公司为每位员工配置了一台电脑。',
  ])('leaves the words alone where the context does not decide: %s', (text) => {
    expect(check(text).filter((i) => i.category === '0')).toEqual([]);
  });
  it('is part of the usage family (bit 4)', () => {
    expect(check('他的新书一上市就收到了读者的热烈欢迎。', { checkOptions: 127 - 4 })).toEqual([]);
  });
});
